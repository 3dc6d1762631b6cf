-- lines_real.lua: a deterministic workload for Lua built three ways (regress/e2e/lines_real.sh):
-- tables, strings and patterns, closures, coroutines, metatables, errors, integer and float math.
local t = {}
for i = 1, 2000 do t[i] = (i * 7919) % 1009 end
table.sort(t)
table.sort(t, function(a, b) return a > b end)
local s = {}
for i = 1, 300 do s[#s + 1] = string.format("%d:%x:%5.2f;", i, i * 31, i / 7) end
local text = table.concat(s)
local n = 0
for a, b in text:gmatch("(%d+):(%x+)") do n = n + tonumber(a) + tonumber(b, 16) end
local r = text:gsub("%d", function(d) return d == "7" and "seven" or nil end)
print(n, #r, text:find("99:", 1, true), text:upper():sub(1, 20), ("x"):rep(5, ","))
local fib = setmetatable({}, { __index = function(self, k)
  local v = k < 2 and k or self[k - 1] + self[k - 2]
  rawset(self, k, v)
  return v
end })
print(fib[80], math.floor(3.7), math.maxinteger // 3, 7 % -3, 2 ^ 10, math.tointeger(8.0))
local co = coroutine.wrap(function(a)
  for i = 1, 5 do a = coroutine.yield(a * i) end
  return "done"
end)
local acc = {}
local v = co(1)
for i = 1, 5 do acc[#acc + 1] = tostring(v); v = co(i) end
print(table.concat(acc, " "), v)
local V = {}
V.__index = V
V.__add = function(a, b) return setmetatable({ x = a.x + b.x, y = a.y + b.y }, V) end
V.__tostring = function(a) return "(" .. a.x .. "," .. a.y .. ")" end
local p = setmetatable({ x = 1, y = 2 }, V)
for _ = 1, 100 do p = p + setmetatable({ x = 1, y = -1 }, V) end
print(tostring(p))
local ok, err = pcall(function() error({ code = 42 }) end)
print(ok, type(err) == "table" and err.code, select("#", pcall(error)))
local words = {}
for w in ("the quick brown fox jumps over the lazy dog the end"):gmatch("%a+") do words[w] = (words[w] or 0) + 1 end
local keys = {}
for k in pairs(words) do keys[#keys + 1] = k end
table.sort(keys)
for _, k in ipairs(keys) do io.write(k, "=", words[k], " ") end
print()
print(utf8.char(72, 228, 8364), utf8.len("häll€"), string.pack("<i4", 1000):byte(1, -1))
do
  local i = 0
  ::top::
  i = i + 1
  if i < 10 then goto top end
  print("goto", i)
end
local big = {}
for i = 1, 5000 do big["k" .. i] = i end
for i = 1, 5000, 2 do big["k" .. i] = nil end
local cnt = 0
for _ in pairs(big) do cnt = cnt + 1 end
collectgarbage()
print(cnt, load("return 1 + ...")(41), string.rep("ab", 3, "-"), os.time{year=2020, month=1, day=1, hour=12} > 0)
