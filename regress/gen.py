#!/usr/bin/env python3
"""Random-program generator for the exactness tests: one seed -> one deterministic, terminating C99 program.

Usage: gen.py SEED [OUT.c]

The programs use only unsigned arithmetic (no undefined behaviour, same result at every -O level),
bound every loop with its own guard counter, and bound all calls with a global call budget. They mix
if/else chains, while, do/while, for with empty parts, switch with fall-through and missing default,
case labels inside nested blocks, break, continue, early return, forward and guarded backward goto,
&&/||/?: with side effects in conditions, empty statements, void functions falling off the end, and
runs of 66+ sequential ifs (more paths than 2^64, so the translator must cut).
main prints every call's result and returns a status computed from them.
"""

import random
import sys

BUDGET = 60   # calls allowed per top-level call from main


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.out = []

    # -- helpers -----------------------------------------------------------------------------
    def emit(self, depth, text):
        self.out.append("  " * depth + text)

    def var(self):
        return self.r.choice(["x", "y", "z", "a", "b"])

    def const(self):
        return "%du" % self.r.randint(0, 40)

    def expr(self, d=0):
        r = self.r.random()
        if d > 2 or r < 0.3:
            return self.var() if self.r.random() < 0.7 else self.const()
        if r < 0.75:
            op = self.r.choice(["+", "-", "*", "^", "&", "|"])
            return "(%s %s %s)" % (self.expr(d + 1), op, self.expr(d + 1))
        if r < 0.85:
            return "(%s >> (%s & 7u))" % (self.expr(d + 1), self.expr(d + 1))
        if r < 0.93:
            return "(%s %% (%s | 1u))" % (self.expr(d + 1), self.expr(d + 1))
        return "(%s ? %s : %s)" % (self.cond(d + 1, pure=True), self.expr(d + 1), self.expr(d + 1))

    def call(self):
        """A budgeted call of an earlier function, or a plain expression in the first one."""
        if not self.callable:
            return self.expr(1)
        name = self.r.choice(self.callable)
        return "(budget ? (budget--, %s(%s, %s)) : %s)" % (name, self.expr(2), self.expr(2), self.const())

    def cond(self, d=0, pure=False):
        """A condition; unless pure, with side effects only where && || ?: sequence them."""
        r = self.r.random()
        if d > 2 or r < 0.35:
            v = self.var()
            simple = ["(%s & 1u)" % v, "%s > %s" % (v, self.var()), "%s < %s" % (v, self.const()),
                      "%s == %s" % (v, self.const()), "(%s %% 5u) != 0u" % self.expr(2)]
            if not pure:
                simple.append("(%s++ %% 3u) == 0u" % v)
            return self.r.choice(simple)
        if r < 0.55:
            return "(%s && %s)" % (self.cond(d + 1, pure), self.cond(d + 1, pure))
        if r < 0.75:
            return "(%s || %s)" % (self.cond(d + 1, pure), self.cond(d + 1, pure))
        if r < 0.85:
            return "!(%s)" % self.cond(d + 1, pure)
        if r < 0.93 or pure:
            return "(%s ? %s : %s)" % (self.cond(d + 1, pure), self.cond(d + 1, pure), self.cond(d + 1, pure))
        return "(%s & 3u) == 1u" % self.call()

    def guard(self):
        self.nguards += 1
        return "g%d" % (self.nguards - 1)

    # -- statements --------------------------------------------------------------------------
    def block(self, depth, ctx, n=None):
        if n is None:
            n = self.r.randint(1, 4 if depth < 3 else 2)
        for _ in range(n):
            self.stmt(depth, ctx)

    def body(self, depth, ctx):
        """A braced body, sometimes a single statement or an empty one."""
        r = self.r.random()
        if r < 0.08:
            self.emit(depth, ";")
        elif r < 0.2 and depth > 1:
            self.simple(depth + 1, ctx)
        else:
            self.emit(depth, "{")
            self.block(depth + 1, ctx)
            self.emit(depth, "}")

    def simple(self, depth, ctx):
        v = self.var()
        r = self.r.random()
        if r < 0.45:
            self.emit(depth, "%s = %s;" % (v, self.expr()))
        elif r < 0.65:
            self.emit(depth, "%s %s= %s;" % (v, self.r.choice(["+", "^", "-"]), self.call()))
        elif r < 0.75:
            self.emit(depth, "acc = acc * 31u + %s;" % v)
        elif r < 0.85 and self.void_callable:
            self.emit(depth, "if (budget) { budget--; %s(%s, %s); }" % (self.r.choice(self.void_callable), self.expr(1), self.expr(2)))
        else:
            self.emit(depth, "%s++;" % v)

    def stmt(self, depth, ctx):
        r = self.r.random()
        deep = depth >= 4
        if deep or r < 0.3:
            self.simple(depth, ctx)
        elif r < 0.42:
            self.emit(depth, "if (%s)" % self.cond())
            self.body(depth, ctx)
            if self.r.random() < 0.5:
                self.emit(depth, "else")
                self.body(depth, ctx)
        elif r < 0.47:
            n = self.r.randint(3, 8)
            for i in range(n):
                self.emit(depth, ("if (%s) {" if i == 0 else "} else if (%s) {") % self.cond())
                self.block(depth + 1, ctx, 1)
            self.emit(depth, "} else {")
            self.block(depth + 1, ctx, 1)
            self.emit(depth, "}")
        elif r < 0.55:
            self.loop_while(depth, ctx)
        elif r < 0.6:
            self.loop_do(depth, ctx)
        elif r < 0.7:
            self.loop_for(depth, ctx)
        elif r < 0.78:
            self.switch(depth, ctx)
        elif r < 0.83 and ctx.get("loop"):
            self.emit(depth, "if (%s) %s;" % (self.cond(), self.r.choice(["break", "continue"])))
        elif r < 0.87:
            self.emit(depth, "if (%s) %s;" % (self.cond(), self.ret()))
        elif r < 0.91 and self.labels_ahead:
            self.emit(depth, "if (%s) goto %s;" % (self.cond(), self.r.choice(self.labels_ahead)))
        elif r < 0.94 and self.labels_behind:
            self.emit(depth, "if (%s++ < 2u) goto %s;" % (self.guard(), self.r.choice(self.labels_behind)))
        elif r < 0.955:
            self.emit(depth, "{ }" if self.r.random() < 0.5 else ";")
        elif r < 0.96 and depth <= 3:
            # more paths than a 64-bit register can number: forces cut edges
            for i in range(self.r.randint(66, 72)):
                self.emit(depth, "if ((%s >> %d) & 1u) %s += %du;" % (self.var(), i % 32, self.var(), i))
        else:
            self.simple(depth, ctx)

    def ret(self):
        return "return" if self.void else "return %s" % self.expr(1)

    def loop_while(self, depth, ctx):
        g = self.guard()
        self.emit(depth, "while (%s++ < %du && %s)" % (g, self.r.randint(1, 5), self.cond()))
        self.body(depth, dict(ctx, loop=True))

    def loop_do(self, depth, ctx):
        g = self.guard()
        self.emit(depth, "do {")
        self.block(depth + 1, dict(ctx, loop=True))
        self.emit(depth, "} while (%s++ < %du && %s);" % (g, self.r.randint(1, 4), self.cond()))

    def loop_for(self, depth, ctx):
        i = self.guard()
        k = self.r.randint(1, 5)
        form = self.r.randint(0, 7)  # bit 0: init, bit 1: cond, bit 2: inc present
        init = "%s = 0u" % i if form & 1 else ""
        if not form & 1:
            self.emit(depth, "%s = 0u;" % i)
        cond = ("%s < %du" % (i, k)) if form & 2 else ""
        if form & 2 and self.r.random() < 0.5:
            cond += " && " + self.cond()
        inc = "%s++" % i if form & 4 else ""
        if form & 4 and self.r.random() < 0.3:
            inc += ", %s += 3u" % self.var()
        self.emit(depth, "for (%s; %s; %s) {" % (init, cond, inc))
        if not form & 2:
            self.emit(depth + 1, "if (%s >= %du) break;" % (i, k))
        if not form & 4:
            self.emit(depth + 1, "%s++;" % i)
        self.block(depth + 1, dict(ctx, loop=True))
        self.emit(depth, "}")

    def switch(self, depth, ctx):
        n = self.r.randint(2, 6)
        self.emit(depth, "switch (%s %% %du) {" % (self.expr(1), n + 1))
        inner = dict(ctx, switch=True)
        has_default = self.r.random() < 0.7
        cases = list(range(n))
        self.r.shuffle(cases)
        for j, c in enumerate(cases):
            if c is None:
                continue
            if has_default and j == len(cases) // 2:
                self.emit(depth, "default:")
                self.block(depth + 1, inner, 1)
                self.emit(depth + 1, "/* fall through */")
            if self.r.random() < 0.15 and j + 1 < len(cases):
                # a case label inside a nested block within the switch
                self.emit(depth, "case %du:" % c)
                self.emit(depth + 1, "if (%s) {" % self.cond())
                self.block(depth + 2, inner, 1)
                self.emit(depth + 1, "} else {")
                self.emit(depth + 1, "case %du:" % cases[j + 1])
                self.block(depth + 2, inner, 1)
                self.emit(depth + 1, "}")
                self.emit(depth + 1, "break;")
                cases[j + 1] = None
                continue
            self.emit(depth, "case %du:" % c)
            self.block(depth + 1, inner, self.r.randint(0, 2))
            if self.r.random() < 0.7 or j == len(cases) - 1:
                self.emit(depth + 1, "break;")   # C99: no label right before the closing brace
            else:
                self.emit(depth + 1, "/* fall through */")
        self.emit(depth, "}")

    # -- functions and program ---------------------------------------------------------------
    def function(self, name, void):
        self.void = void
        self.nguards = 0
        labels = ["L%d" % i for i in range(self.r.randint(0, 3))]
        self.labels_ahead, self.labels_behind = list(labels), []
        outer, self.out = self.out, []
        for s in range(len(labels) + 1):
            if s > 0:
                self.labels_ahead.remove(labels[s - 1])
                self.emit(0, "%s:" % labels[s - 1])
                self.labels_behind.append(labels[s - 1])
            self.block(1, {}, self.r.randint(1, 3))
        body, self.out = self.out, outer
        self.emit(0, "static %s %s(unsigned a, unsigned b)" % ("void" if void else "unsigned", name))
        self.emit(0, "{")
        self.emit(1, "unsigned x = a ^ 0x5au, y = b + 7u, z = a * b;")
        if self.nguards:
            self.emit(1, "unsigned %s;" % ", ".join("g%d = 0u" % i for i in range(self.nguards)))
        self.out.extend(body)
        if not void:
            self.emit(1, "return x * 3u + y * 5u + z;")
        elif self.r.random() < 0.5:
            self.emit(1, "acc ^= x + y + z;")
        self.emit(0, "}")  # a void function falls off the end
        self.emit(0, "")

    def program(self, seed):
        self.emit(0, "/* Generated by regress/gen.py %d: a random terminating program for the exactness oracle. */" % seed)
        self.emit(0, "#include <stdio.h>")
        self.emit(0, "")
        self.emit(0, "static unsigned acc;")
        self.emit(0, "static unsigned budget = %du" % BUDGET + ";")
        self.emit(0, "")
        self.callable, self.void_callable = [], []
        names = []
        for k in range(self.r.randint(3, 6)):
            void = self.r.random() < 0.25
            name = ("v%d" if void else "f%d") % k
            self.function(name, void)
            (self.void_callable if void else self.callable).append(name)
            names.append((name, void))
        self.emit(0, "int main(void)")
        self.emit(0, "{")
        self.emit(1, "unsigned h = 0u, i;")
        self.emit(1, "for (i = 0u; i < 6u; i++) {")
        for name, void in names:
            self.emit(2, "budget = %du" % BUDGET + ";")
            if void:
                self.emit(2, "%s(i * 7u, i + 3u);" % name)
                self.emit(2, "h = h * 33u + acc;")
            else:
                self.emit(2, "h = h * 33u + %s(i * 7u, i + 3u);" % name)
            self.emit(2, 'printf("%s %%u %%u\\n", i, h);' % name)
        self.emit(1, "}")
        self.emit(1, 'printf("acc %u\\n", acc);')
        self.emit(1, "return (int)(h % 64u);")
        self.emit(0, "}")
        return "\n".join(self.out) + "\n"


def main(argv):
    if len(argv) < 1 or not argv[0].isdigit():
        print("usage: gen.py SEED [OUT.c]", file=sys.stderr)
        return 2
    seed = int(argv[0])
    text = Gen(seed).program(seed)
    if len(argv) > 1:
        with open(argv[1], "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
