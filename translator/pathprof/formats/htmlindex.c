/* htmlindex.c: the index page of the HTML report, built for big projects: the files as a
   directory tree (collapsible, with per-directory totals), sortable columns and a search box
   over files and functions; with --diff, only the changed files and their changed code's
   totals. Inline CSS and JavaScript; the URL fragment (#q=text&sort=-col&fsort=col&closed=d1,d2) sets
   the same state a click would, so a shared link or a headless browser sees it too. */
#include "formats.h"
#include "pathprof/diffcov.h"
#include "mcdcfmt.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char css[] =
  "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}"
  "table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right;white-space:nowrap}"
  "th{background:#eee;cursor:pointer;user-select:none}th.asc:after{content:' \\25B2'}th.desc:after{content:' \\25BC'}"
  "td.name,th.name,#functions td:nth-child(-n+2){text-align:left}tbody tr:nth-child(even) td{background:#fafafa}"
  ".bar{display:inline-block;width:60px;height:9px;background:#e66;margin-right:4px}"
  ".bar i{display:block;height:9px;background:#4a4}"
  "tr.dir td{font-weight:600}tr.dir td.name{cursor:pointer}.tog{display:inline-block;width:1em;color:#666}"
  "tr.closed .tog{transform:rotate(-90deg)}#search{font:inherit;padding:3px 6px;width:24em;margin:.5em 0}"
  "section{margin-bottom:1.5em}h2{font-size:1.1em;border-bottom:1px solid #ccc}";

/* Collapsing, sorting (siblings stay under their directory) and searching; all state lives in
   the rows' classes and order, and in location.hash. */
static const char script[] =
  "var st={q:'',sort:{},closed:{}},hk={files:'sort',functions:'fsort'};"
  "function rows(t){return Array.prototype.slice.call(t.tBodies[0].rows);}"
  "function key(r,c){if(c==='name')return r.getAttribute('data-name');var x=r.cells[+c];if(!x)return 0;"
  " var v=x.getAttribute('data-v');if(v!==null)return +v;var t=x.textContent,m=/^(\\d+)\\/(\\d+)/.exec(t);"
  " return m?+m[1]/+m[2]:isNaN(parseFloat(t))?-1:parseFloat(t);}"
  "function sortTable(t,spec){if(!spec)return;var desc=spec[0]==='-',c=desc?spec.slice(1):spec;"
  " var kids={},all=rows(t);all.forEach(function(r){var p=r.getAttribute('data-parent')||'';(kids[p]=kids[p]||[]).push(r);});"
  " var cmp=function(a,b){var d=(a.classList.contains('dir')?0:1)-(b.classList.contains('dir')?0:1);if(d)return d;"
  "  var x=key(a,c),y=key(b,c);if(x<y)return desc?1:-1;if(x>y)return desc?-1:1;return 0;};"
  " var b=t.tBodies[0];var put=function(p){(kids[p]||[]).sort(cmp).forEach(function(r){b.appendChild(r);put(r.id);});};put('');"
  " Array.prototype.forEach.call(t.tHead.rows[0].cells,function(h){h.classList.remove('asc','desc');"
  "  if(h.getAttribute('data-col')===c)h.classList.add(desc?'desc':'asc');});}"
  "function show(t){var by={},q=st.q.toLowerCase(),vis={};rows(t).forEach(function(r){by[r.id]=r;});"
  " var up=function(r,f){for(var p=r.getAttribute('data-parent');p;p=by[p].getAttribute('data-parent'))if(f(p))return true;return false;};"
  " if(q)rows(t).forEach(function(r){if(!r.classList.contains('dir')&&(r.getAttribute('data-name')||'').toLowerCase().indexOf(q)>=0){"
  "  vis[r.id]=1;up(r,function(p){vis[p]=1;});}});"
  " rows(t).forEach(function(r){var s=q?!!vis[r.id]:!up(r,function(p){return st.closed[p];});"
  "  r.style.display=s?'':'none';r.classList.toggle('closed',!!st.closed[r.id]);});}"
  "function apply(){['files','functions'].forEach(function(id){var t=document.getElementById(id);if(!t)return;"
  " sortTable(t,st.sort[id]);show(t);});var i=document.getElementById('search');if(i&&i.value!==st.q)i.value=st.q;}"
  "function save(){var h=[];if(st.q)h.push('q='+encodeURIComponent(st.q));"
  " for(var id in hk)if(st.sort[id])h.push(hk[id]+'='+st.sort[id]);"
  " var c=Object.keys(st.closed);if(c.length)h.push('closed='+c.join(','));history.replaceState(null,'','#'+h.join('&'));}"
  "function fromHash(){st={q:'',sort:{},closed:{}};location.hash.slice(1).split('&').forEach(function(kv){var i=kv.indexOf('=');"
  " if(i<0)return;var k=kv.slice(0,i),v=decodeURIComponent(kv.slice(i+1));if(k==='q')st.q=v;"
  " else if(k==='closed')v.split(',').forEach(function(d){if(d)st.closed[d]=1;});"
  " else for(var id in hk)if(hk[id]===k)st.sort[id]=v;});apply();}"
  "document.addEventListener('DOMContentLoaded',function(){"
  " document.querySelectorAll('th[data-col]').forEach(function(h){h.addEventListener('click',function(){"
  "  var id=h.closest('table').id,c=h.getAttribute('data-col');st.sort[id]=st.sort[id]===c?'-'+c:c;apply();save();});});"
  " document.querySelectorAll('tr.dir td.name').forEach(function(td){td.addEventListener('click',function(){var id=td.parentNode.id;"
  "  if(st.closed[id])delete st.closed[id];else st.closed[id]=1;apply();save();});});"
  " var i=document.getElementById('search');if(i)i.addEventListener('input',function(){st.q=i.value;apply();save();});"
  " fromHash();});window.addEventListener('hashchange',fromHash);";

/* ---- the tree of directories and files ---- */

typedef struct {
  char *name;        /* a path component, or several joined ("src/lib") */
  int parent;        /* -1 for the root */
  int file;          /* coverage file index, or -1 for a directory */
  PPCovSum s;
  PPMcdcSum m;       /* MC/DC conditions, in a build with decision tables */
  VEC(int) kids;
} Node;

typedef VEC(Node) Tree;

static int add_node(Tree *t, int parent, const char *name, size_t n, int file) {
  Node x;
  memset(&x, 0, sizeof x);
  x.name = pp_xasprintf("%.*s", (int)n, name);
  x.parent = parent;
  x.file = file;
  VEC_PUSH(*t, x);
  int id = (int)t->n - 1;
  if (parent >= 0) VEC_PUSH(t->v[parent].kids, id);
  return id;
}

/* The directory named name[0..n) under parent, made when missing. */
static int child_dir(Tree *t, int parent, const char *name, size_t n) {
  for (size_t i = 0; i < t->v[parent].kids.n; i++) {
    const Node *k = &t->v[t->v[parent].kids.v[i]];
    if (k->file < 0 && strlen(k->name) == n && !strncmp(k->name, name, n)) return t->v[parent].kids.v[i];
  }
  return add_node(t, parent, name, n, -1);
}

/* A directory whose only child is a directory becomes one node ("src/lib"). */
static void join_chains(Tree *t, int v) {
  Node *x = &t->v[v];
  while (x->parent >= 0 && x->file < 0 && x->kids.n == 1 && t->v[x->kids.v[0]].file < 0) {
    Node *k = &t->v[x->kids.v[0]];
    char *name = pp_xasprintf("%s%s%s", x->name, strcmp(x->name, "/") ? "/" : "", k->name);  /* "/" + "usr": "/usr" */
    free(x->name);
    x->name = name;
    VEC_FREE(x->kids);
    x->kids = k->kids;
    memset(&k->kids, 0, sizeof k->kids);
    k->parent = -2;  /* unlinked */
    for (size_t i = 0; i < x->kids.n; i++) t->v[x->kids.v[i]].parent = v;
  }
  for (size_t i = 0; i < t->v[v].kids.n; i++) join_chains(t, t->v[v].kids.v[i]);
}

static void sum_up(Tree *t, int v) {
  for (size_t i = 0; i < t->v[v].kids.n; i++) {
    sum_up(t, t->v[v].kids.v[i]);
    pp_coverage_sum_add(&t->v[v].s, &t->v[t->v[v].kids.v[i]].s);
    const PPMcdcSum *k = &t->v[t->v[v].kids.v[i]].m;
    PPMcdcSum *m = &t->v[v].m;
    m->dec += k->dec, m->dec_hit += k->dec_hit, m->cond += k->cond, m->cond_hit += k->cond_hit;
  }
}

static const Tree *sort_tree;
static int by_kind_name(const void *a, const void *b) {
  const Node *x = &sort_tree->v[*(const int *)a], *y = &sort_tree->v[*(const int *)b];
  if ((x->file < 0) != (y->file < 0)) return x->file < 0 ? -1 : 1;
  return strcmp(x->name, y->name);
}

/* The files of the report (all, or the changed ones) under their directories, by the names
   reports give them (relative to the project root), each with its totals. */
static void build_tree(Tree *t, const PPCoverage *c, const PPDiff *d) {
  add_node(t, -1, "", 0, -1);
  for (size_t i = 0; i < c->files.n; i++) {
    const PPDiffFile *df = d ? pp_diff_file(d, (int)i) : NULL;
    if (d && !df) continue;
    const char *p = pp_report_path(&c->files.v[i]);
    int dir = 0;
    if (*p == '/') { dir = child_dir(t, 0, "/", 1); p++; }
    for (const char *s; (s = strchr(p, '/')); p = s + 1)
      if (s > p) dir = child_dir(t, dir, p, (size_t)(s - p));
    int f = add_node(t, dir, p, strlen(p), (int)i);
    if (df) t->v[f].s = df->sum;
    else pp_coverage_sum_file(c, &c->files.v[i], &t->v[f].s);
    if (c->mcdc) pp_mcdc_sum_file(c->mcdc, (int)i, &t->v[f].m);
  }
  for (size_t i = 0; i < t->v[0].kids.n; i++) join_chains(t, t->v[0].kids.v[i]);
  sum_up(t, 0);
  sort_tree = t;
  for (size_t i = 0; i < t->n; i++) pp_sort(t->v[i].kids.v, t->v[i].kids.n, sizeof(int), by_kind_name);
}

static void free_tree(Tree *t) {
  for (size_t i = 0; i < t->n; i++) { free(t->v[i].name); VEC_FREE(t->v[i].kids); }
  VEC_FREE(*t);
}

/* ---- cells ---- */

/* "hit/total pct%" with a bar; data-v is the ratio the columns sort by (-1: nothing to cover). */
static void cell(FILE *o, uint64_t hit, uint64_t total) {
  if (!total) { fputs("<td data-v=\"-1\">-</td>", o); return; }
  double r = (double)hit / (double)total;
  fprintf(o, "<td data-v=\"%.5g\"><span class=\"bar\"><i style=\"width:%.0f%%\"></i></span>%" PRIu64 "/%" PRIu64 " %.1f%%</td>",
          r, 100 * r, hit, total, 100 * r);
}

/* A function row's "hit/total pct%": no bar and no data-v (the script reads the ratio from the
   text), as the functions outnumber the files a hundredfold and made the index megabytes. */
static void plain_cell(FILE *o, uint64_t hit, uint64_t total) {
  if (!total) fputs("<td>-</td>", o);
  else fprintf(o, "<td>%" PRIu64 "/%" PRIu64 " %.1f%%</td>", hit, total, 100.0 * (double)hit / (double)total);
}

/* The columns: the whole program's six kinds, or the four a change has. */
static void sum_cells(FILE *o, const PPCovSum *s, bool diff) {
  cell(o, s->lines_hit, s->lines);
  if (!diff) {
    cell(o, s->funcs_hit, s->funcs);
    cell(o, s->blocks_hit, s->blocks);
    cell(o, s->edges_hit, s->edges);
    cell(o, s->br_hit, s->br);
  } else {
    cell(o, s->br_hit, s->br);
    cell(o, s->funcs_hit, s->funcs);
  }
  cell(o, s->paths_hit, s->paths);
  if (diff) return;
  /* what exclusion markers took out of the totals, counted apart (sorted by lines) */
  if (s->lines_excl || s->funcs_excl || s->br_excl || s->paths_excl)
    fprintf(o, "<td class=\"excl\" data-v=\"%" PRIu64 "\">%" PRIu64 " lines, %" PRIu64 " functions, %" PRIu64 " branches, %" PRIu64
               " paths</td>", s->lines_excl, s->lines_excl, s->funcs_excl, s->br_excl, s->paths_excl);
  else fputs("<td data-v=\"0\">-</td>", o);
}

/* The MC/DC column's cell (a build with decision tables, not --diff): conditions shown. */
static void mcdc_cell(FILE *o, const PPCoverage *c, bool diff, const PPMcdcSum *m) {
  if (c->mcdc && !diff) cell(o, m->cond_hit, m->cond);
}

/* Column heads; first > 0 numbers them (data-col, the cell index) to make them sortable; with
   mcdc, the MC/DC column last. */
static void sum_heads(FILE *o, bool diff, int first, bool mcdc) {
  static const char *const full[] = { "lines", "functions", "blocks", "edges", "branches", "paths", "excluded", NULL };
  static const char *const part[] = { "changed lines", "branches", "functions", "paths through them", NULL };
  const char *const *h = diff ? part : full;
  for (int i = 0; h[i]; i++)
    if (first > 0) fprintf(o, "<th data-col=\"%d\">%s</th>", first + i, h[i]);
    else fprintf(o, "<th>%s</th>", h[i]);
  if (!mcdc || diff) return;
  if (first > 0) fprintf(o, "<th data-col=\"%d\">MC/DC conditions</th>", first + 7);
  else fputs("<th>MC/DC conditions</th>", o);
}

/* Directory rows carry id d<N>, file rows s<N> (their page is s<N>.html); data-parent is the
   row of the enclosing directory, data-name what the search matches. */
static void tree_rows(FILE *o, const Tree *t, int v, const char *parent_path, int depth, bool diff, const PPCoverage *c) {
  const Node *x = &t->v[v];
  size_t pl = strlen(parent_path);
  char *path = v ? pp_xasprintf("%s%s%s", parent_path, pl && parent_path[pl - 1] != '/' ? "/" : "", x->name) : pp_xstrdup("");
  if (v) {
    char pid[32] = "";
    if (x->parent > 0) snprintf(pid, sizeof pid, "d%d", x->parent);
    if (x->file < 0) fprintf(o, "<tr class=\"dir\" id=\"d%d\"", v);
    else fprintf(o, "<tr class=\"file\" id=\"s%d\"", x->file);
    fprintf(o, " data-parent=\"%s\" data-depth=\"%d\" data-name=\"", pid, depth);
    pp_fputs_xml(o, x->file < 0 ? path : pp_report_path(&c->files.v[x->file]));
    fprintf(o, "\"><td class=\"name\" style=\"padding-left:%.1fem\">", 0.5 + 1.2 * depth);
    if (x->file < 0) {
      fputs("<span class=\"tog\">&#9662;</span>", o);
      pp_fputs_xml(o, x->name);
      if (strcmp(x->name, "/")) fputs("/", o);  /* the file system's root is "/", not "//" */
    } else {
      fprintf(o, "<span class=\"tog\"></span><a href=\"s%d.html\">", x->file);
      pp_fputs_xml(o, x->name);
      fputs("</a>", o);
    }
    fputs("</td>", o);
    sum_cells(o, &x->s, diff);
    mcdc_cell(o, c, diff, &x->m);
    fputs("</tr>\n", o);
  }
  for (size_t i = 0; i < x->kids.n; i++) tree_rows(o, t, x->kids.v[i], path, v ? depth + 1 : 0, diff, c);
  free(path);
}

/* One row per function (with --diff: per function with changed code), sortable and searched
   like the files. */
static void function_rows(FILE *o, const PPCoverage *c, const PPDiff *d) {
  fputs("<section><h2>Functions</h2><table id=\"functions\">\n<thead><tr><th class=\"name\" data-col=\"name\">function</th>"
        "<th class=\"name\">file</th><th data-col=\"2\">calls</th>", o);
  if (d) fputs("<th data-col=\"3\">paths through changed lines</th>", o);
  else fputs("<th data-col=\"3\">lines</th><th data-col=\"4\">blocks</th><th data-col=\"5\">edges</th><th data-col=\"6\">branches</th>"
             "<th data-col=\"7\">paths</th>", o);
  if (c->mcdc && !d) fputs("<th data-col=\"8\">MC/DC conditions</th>", o);
  fputs("</tr></thead><tbody>\n", o);
  size_t n = d ? d->funcs.n : c->funcs.n;
  for (size_t k = 0; k < n; k++) {
    int fi = d ? d->funcs.v[k].func : (int)k;
    const PPCovFunc *fn = &c->funcs.v[fi];
    fprintf(o, "<tr class=\"function\" id=\"fn%d\" data-name=\"", fi);
    pp_fputs_xml(o, fn->f->name);
    fputs(" ", o);
    pp_fputs_xml(o, pp_report_path(&c->files.v[fn->file]));
    fprintf(o, "\"><td><a href=\"f%d.html\">", fi);  /* left-aligned by the style sheet */
    pp_fputs_xml(o, fn->f->name);
    fputs("</a></td><td>", o);
    pp_fputs_xml(o, pp_base_name(pp_coverage_file_name(&c->files.v[fn->file])));
    fprintf(o, ":%u</td><td>%" PRIu64 "</td>", fn->f->line, fn->calls);
    if (d) {
      if (d->funcs.v[k].counted) plain_cell(o, d->funcs.v[k].paths_hit, d->funcs.v[k].paths);
      else fputs("<td>edge mode</td>", o);
    } else {
      plain_cell(o, fn->lines_hit, fn->lines_total);
      plain_cell(o, fn->blocks_hit, fn->blocks_total);
      plain_cell(o, fn->edges_hit, fn->edges_total);
      plain_cell(o, fn->branches_hit, fn->branches_total);
      if (fn->view->edges) fputs("<td>edge mode</td>", o);
      else plain_cell(o, fn->paths_executed, fn->f->g.npaths);
      PPMcdcSum m = {0};
      for (size_t i = 0; c->mcdc && i < c->mcdc->decs.n; i++)
        if (c->mcdc->decs.v[i].func == fi) pp_mcdc_sum_add(&m, &c->mcdc->decs.v[i]);
      mcdc_cell(o, c, false, &m);
    }
    fputs("</tr>\n", o);
  }
  fputs("</tbody></table></section>\n", o);
}

void pp_html_index(FILE *o, const PPCoverage *c, const char *profile, const PPDiff *d) {
  Tree t = {0};
  build_tree(&t, c, d);
  size_t ndirs = 0, nfiles = 0;
  for (size_t i = 1; i < t.n; i++) {
    if (t.v[i].parent == -2) continue;
    ndirs += t.v[i].file < 0;
    nfiles += t.v[i].file >= 0;
  }
  fprintf(o, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>pathprof coverage</title><style>%s</style>"
             "<script>%s</script></head>\n<body>\n<h1>pathprof coverage%s</h1>\n<p>Profile <code>", css, script,
          d ? " of a change" : "");
  pp_fputs_xml(o, profile);
  fprintf(o, "</code>: %zu files in %zu directories, %zu functions.", nfiles, ndirs, d ? d->funcs.n : c->funcs.n);
  if (d) {
    fputs(" The code a change added or modified (<code>--diff ", o);
    pp_fputs_xml(o, d->base);
    fputs("</code>); changed lines are marked on each file's page.", o);
  }
  fputs("</p>\n<table id=\"total\"><thead><tr><th class=\"name\"></th>", o);
  sum_heads(o, d != NULL, 0, c->mcdc != NULL);
  fputs("</tr></thead><tbody><tr><td class=\"name\"><b>total</b></td>", o);
  sum_cells(o, &t.v[0].s, d != NULL);
  mcdc_cell(o, c, d != NULL, &t.v[0].m);
  fputs("</tr></tbody></table>\n", o);
  if (!d && t.v[0].s.funcs_uninst)
    fprintf(o, "<p class=\"uninst\">Not instrumented: %" PRIu64 " function%s, %" PRIu64 " lines, in no total (marked n/i on "
               "their files' pages, with the reasons).</p>\n", t.v[0].s.funcs_uninst, t.v[0].s.funcs_uninst > 1 ? "s" : "",
            t.v[0].s.lines_uninst);
  fputs("<p><input id=\"search\" type=\"search\" placeholder=\"Search files and functions\" autocomplete=\"off\"></p>\n", o);
  fputs("<section><h2>Files</h2><table id=\"files\">\n<thead><tr><th class=\"name\" data-col=\"name\">file</th>", o);
  sum_heads(o, d != NULL, 1, c->mcdc != NULL);
  fputs("</tr></thead><tbody>\n", o);
  tree_rows(o, &t, 0, "", 0, d != NULL, c);
  fputs("</tbody></table></section>\n", o);
  if (d && d->no_data.n) {
    fputs("<p>Changed C files with no coverage data:", o);
    for (size_t i = 0; i < d->no_data.n; i++) { fputs(" <code>", o); pp_fputs_xml(o, d->no_data.v[i]); fputs("</code>", o); }
    fputs("</p>\n", o);
  }
  function_rows(o, c, d);
  fputs("</body></html>\n", o);
  free_tree(&t);
}
