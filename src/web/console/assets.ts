/**
 * The console's stylesheet and script, served from this process (no CDN, no build step). The script only
 * enhances: copy buttons, and reading a chosen deployment file into the upload form's text area.
 */
import type { FastifyInstance } from 'fastify';

const CSS =
  `
:root { --ink: #1d2430; --muted: #5b6473; --line: #d9dee6; --bg: #f6f7f9; --card: #fff; --accent: #0b5cad; ` +
  `--bad: #a61b1b; --ok: #1c6b38; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); ` +
  `background: var(--bg); }
a { color: var(--accent); }
.top { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1.5rem; padding: 0.6rem 1.5rem; ` +
  `background: var(--card); border-bottom: 1px solid var(--line); }
.brand { font-weight: 700; color: var(--ink); text-decoration: none; }
.brand span { font-weight: 400; color: var(--muted); }
nav { display: flex; flex-wrap: wrap; gap: 0.25rem; }
nav a { padding: 0.3rem 0.7rem; border-radius: 6px; text-decoration: none; color: var(--ink); }
nav a[aria-current="page"] { background: #e4ecf7; color: var(--accent); font-weight: 600; }
.who { margin-left: auto; display: flex; gap: 0.6rem; align-items: center; color: var(--muted); font-size: 0.9rem; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 0.5rem; top: 0.5rem; z-index: 10; background: var(--card); padding: 0.4rem 0.8rem; }
/* Named for a screen reader, not shown (hiddenHeading in html.ts). */
.vh { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
main.narrow { max-width: 28rem; margin-top: 3rem; }
h1 { font-size: 1.5rem; margin: 0.8rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 2rem 0 0.6rem; }
section > :first-child, .card > :first-child { margin-top: 0; }
section, .card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.2rem; ` +
  `margin: 0 0 1rem; overflow-x: auto; }
table { width: 100%; border-collapse: collapse; font-size: 0.92rem; }
th, td { text-align: left; padding: 0.45rem 0.5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code { font: 0.9em ui-monospace, SFMono-Regular, Menlo, monospace; background: #eef1f5; padding: 0.1em 0.3em; ` +
  `border-radius: 4px; overflow-wrap: break-word; }
label { display: block; margin: 0.6rem 0 0.2rem; font-weight: 600; }
input[type=text], input[type=email], input[type=password], input[type=date], select, textarea { width: 100%; ` +
  `padding: 0.45rem 0.55rem; border: 1px solid #b9c1cc; border-radius: 6px; font: inherit; background: #fff; }
textarea { font: 0.85rem/1.4 ui-monospace, monospace; min-height: 14rem; }
textarea.short { min-height: 4.5rem; }
fieldset { border: 1px solid var(--line); border-radius: 6px; margin: 0.6rem 0; min-width: 0; }
fieldset label { display: inline-flex; gap: 0.3rem; font-weight: 400; margin-right: 1rem; max-width: 100%; ` +
  `overflow-wrap: anywhere; }
button { font: inherit; padding: 0.45rem 0.9rem; border-radius: 6px; border: 1px solid var(--accent); ` +
  `background: var(--accent); color: #fff; cursor: pointer; margin-top: 0.8rem; }
button.secondary { background: #fff; color: var(--accent); }
button.danger { background: var(--bad); border-color: var(--bad); }
button.link { background: none; border: none; color: var(--accent); padding: 0; margin: 0; text-decoration: underline; }
td form, td button { display: inline; margin: 0; }
td button { padding: 0.15rem 0.55rem; font-size: 0.85rem; }
.error { color: var(--bad); background: #fbeaea; border: 1px solid #efc4c4; padding: 0.6rem 0.8rem; ` +
  `border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; }
.notice { color: var(--ok); background: #e8f5ec; border: 1px solid #bfe0c9; padding: 0.6rem 0.8rem; ` +
  `border-radius: 6px; overflow-wrap: anywhere; }
.banner { color: var(--bad); background: #fff4e5; border: 1px solid #f0c88c; padding: 0.2rem 0.9rem; ` +
  `border-radius: 8px; margin: 0.8rem 0; overflow-wrap: anywhere; }
.actions { display: flex; flex-wrap: wrap; gap: 0.6rem 1rem; align-items: center; margin: 0.8rem 0; }
.actions form, .actions button { margin: 0; }
.secret { background: #fff8e1; border: 1px solid #f0d98c; padding: 0.4rem 1rem; border-radius: 8px; ` +
  `margin-bottom: 1rem; overflow-wrap: anywhere; }
.copy-row { display: flex; gap: 0.6rem; align-items: center; flex-wrap: wrap; }
.copy-row code { font-size: 1rem; padding: 0.3rem 0.5rem; word-break: break-all; }
.copy-row button { margin: 0; }
.muted { color: var(--muted); }
.nowrap, time { white-space: nowrap; }
.pill { display: inline-block; padding: 0 0.5rem; border-radius: 999px; font-size: 0.8rem; background: #eef1f5; }
.pill.live { background: #e3f4e8; color: var(--ok); }
.pill.paused, .pill.revoked { background: #fbeaea; color: var(--bad); }
.pill.demo { background: #fff1cc; color: #6b4a00; }
.figures { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(9.5rem, 100%), 1fr)); gap: 0.8rem; ` +
  `margin-bottom: 1rem; }
.figures div { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 0.7rem 1rem; }
.figures b { display: block; font-size: 1.35rem; font-variant-numeric: tabular-nums; }
progress { width: 100%; height: 0.5rem; margin-top: 0.4rem; accent-color: var(--accent); }
svg.chart { width: 100%; height: auto; max-height: 18rem; }
svg.chart text { font: 11px system-ui, sans-serif; fill: var(--muted); }
.legend { display: flex; gap: 1rem; font-size: 0.9rem; }
.legend i { display: inline-block; width: 0.8rem; height: 0.8rem; border-radius: 2px; margin-right: 0.3rem; ` +
  `vertical-align: -1px; }
.rest { fill: #0b5cad; background: #0b5cad; } .a2a { fill: #d9822b; background: #d9822b; } ` +
  `.mcp { fill: #2f9e6b; background: #2f9e6b; } .explorer { fill: #7a4fb0; background: #7a4fb0; }
.grid2 { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(20rem, 100%), 1fr)); gap: 1rem; }
/* Nothing widens the page (docs/console.md, "Phones"): a box whose content is wider scrolls inside itself (above), long
   codes wrap, and on a phone console.js lays a table too wide for its box out as one block per row, each cell beside
   its column's heading. */
@media (max-width: 40rem) {
  .top { padding: 0.5rem 1rem; gap: 0.4rem 1rem; }
  .who { margin-left: 0; }
  main { padding: 0.5rem 1rem 2rem; }
  section, .card { padding: 0.8rem; }
  table.stacked thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  table.stacked, table.stacked tbody, table.stacked tr, table.stacked td { display: block; }
  table.stacked tr { padding: 0.4rem 0; border-bottom: 1px solid var(--line); }
  table.stacked td { border: 0; padding: 0.15rem 0; text-align: left; }
  th, td { padding: 0.4rem 0.3rem; }
  table.stacked td, table > tbody:first-child > tr > td { overflow-wrap: anywhere; }
  .figures { grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 0.5rem; }
  .figures div { padding: 0.5rem 0.7rem; }
  svg.chart text { font-size: 22px; }
  /* The label floats in the cell's left margin and the cell holds it (flow-root): a label of two lines ("Yours, by
     place") makes its cell taller instead of running into the next one. */
  table.stacked td[data-label] { display: flow-root; padding-left: 7.5rem; min-height: 1.5em; }
  table.stacked td[data-label]::before {
    content: attr(data-label); float: left; width: 7rem; margin-left: -7.5rem; color: var(--muted); font-weight: 600;
  }
}
`;

const JS =
  `
document.addEventListener('click', (event) => {
  const button = event.target.closest('[data-copy]');
  if (!button) return;
  const text = document.getElementById(button.dataset.copy).textContent;
  navigator.clipboard.writeText(text).then(() => { button.textContent = 'Copied'; }, ` +
  `() => { button.textContent = 'Select and copy'; });
});
// A table too wide for its box on a phone becomes one block per row (console.css, table.stacked), each cell labelled
// with its column's heading; without this script it scrolls inside its box instead.
const phone = window.matchMedia('(max-width: 40rem)');
const tables = [...document.querySelectorAll('table')].filter((table) => table.tHead);
for (const table of tables) {
  // A column of buttons (its heading 'unlabelled', named for screen readers only) gets no label beside each button.
  const headings = [...table.tHead.rows[0].cells].map((th) =>
    th.classList.contains('unlabelled') ? '' : th.textContent.trim(),
  );
  for (const body of table.tBodies) {
    for (const row of body.rows) {
      let column = 0;
      for (const cell of row.cells) {
        if (cell.colSpan === 1 && headings[column]) cell.dataset.label = headings[column];
        column += cell.colSpan;
      }
    }
  }
}
function fitTables() {
  for (const table of tables) table.classList.remove('stacked');
  if (!phone.matches) return;
  for (const table of tables) {
    const box = table.parentElement;
    const style = getComputedStyle(box);
    const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    if (table.offsetWidth > room + 1) table.classList.add('stacked');
  }
}
fitTables();
let fitting = false;
window.addEventListener('resize', () => {
  if (fitting) return;
  fitting = true;
  requestAnimationFrame(() => { fitting = false; fitTables(); });
});
// A page a change redirected to says what was done (done.ts, ?done=…): the address loses the notice's query, so
// that a reload or a bookmark shows the page without it.
if (new URLSearchParams(location.search).has('done')) history.replaceState(null, '', location.pathname);
document.addEventListener('change', (event) => {
  const input = event.target;
  if (!input.matches || !input.matches('input[type=file][data-into]')) return;
  const file = input.files && input.files[0];
  if (!file) return;
  file.text().then((text) => {
    document.getElementById(input.dataset.into).value = text;
    const name = document.getElementById(input.dataset.name);
    if (name) name.value = file.name;
  });
});
`;

export function registerConsoleAssets(scope: FastifyInstance): void {
  scope.get('/console/assets/console.css', (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').type('text/css; charset=utf-8').send(CSS),
  );
  scope.get('/console/assets/console.js', (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').type('text/javascript; charset=utf-8').send(JS),
  );
}
