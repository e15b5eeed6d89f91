'use strict';
// The puzzle view of the page: a board with some step numbers given, to complete into a
// knight's tour. Type or paste a board (or ask for a new one), try a solution cell by cell and
// check it, reveal one completion, see the number of completions. Everything is answered by
// /api/puzzle and /api/puzzle/new; only the check of a try is done here, by the rules alone.
// Its state is in the address too: ?puzzle=6x6&pseed=1 makes a puzzle, ?pboard=1,.,./.,.,.
// loads one (rows by '/', cells by ','; tR_C=N types N in a cell), and &check=1, &pcount=1,
// &reveal=1 act on it.
(() => {
  const $ = (id) => document.getElementById(id);
  let puzzle = null;   // {rows, cols, closed, cells: [[n|null]]}: the given numbers

  function say(text, bad) {
    const line = $('puzzle-status');
    line.textContent = text;
    line.classList.toggle('error', !!bad);
  }

  function puzzleText() {
    return puzzle.cells.map((row) => row.map((c) => (c ? String(c) : '.')).join(' ')).join('\n') + '\n';
  }

  // Only the grid's shape is read here; the server checks the numbers and says what is wrong.
  function parse(text) {
    const rows = text.split(/\r?\n/).map((l) => l.split('#')[0].trim()).filter((l) => l !== '')
      .map((l) => l.split(/\s+/).map((t) => (/^[0-9]+$/.test(t) && Number(t) > 0 ? Number(t) : null)));
    if (rows.length === 0) throw new Error('the puzzle has no rows');
    return rows;
  }

  // The Rows and Columns boxes say the board shown (a link's 4×4, not the default 6×6).
  function showSize() {
    for (const [id, value] of [['puzzle-rows', puzzle.rows], ['puzzle-cols', puzzle.cols]]) {
      $(id).value = String(value);
      $(id).setAttribute('value', String(value));
    }
  }

  function draw() {
    showSize();
    const grid = $('puzzle-grid');
    grid.replaceChildren();
    grid.style.gridTemplateColumns = `repeat(${puzzle.cols}, 1fr)`;
    puzzle.cells.forEach((row, r) => row.forEach((given, c) => {
      const cell = document.createElement('input');
      cell.type = 'text';
      cell.inputMode = 'numeric';
      cell.id = `pc-${r}-${c}`;
      cell.className = 'pcell' + ((r + c) % 2 ? ' dark' : '');
      cell.setAttribute('aria-label', `row ${r + 1}, column ${c + 1}`);
      if (given) {
        cell.value = String(given);
        cell.setAttribute('value', String(given));
        cell.readOnly = true;
        cell.classList.add('given');
      }
      grid.append(cell);
    }));
    $('puzzle-text').value = puzzleText();
    $('puzzle-count').textContent = '';
  }

  // A cell's value, also written as its attribute so that a saved page shows it.
  function setCell(r, c, value) {
    const cell = $(`pc-${r}-${c}`);
    cell.value = value;
    cell.setAttribute('value', value);
  }

  function entries() {
    const seen = [];
    for (let r = 0; r < puzzle.rows; r++) {
      for (let c = 0; c < puzzle.cols; c++) {
        const v = $(`pc-${r}-${c}`).value.trim();
        seen.push({ r, c, v, n: /^[0-9]+$/.test(v) ? Number(v) : null });
      }
    }
    return seen;
  }

  // The rules a try must keep: numbers 1..R·C, none twice, and each two consecutive numbers a
  // knight's move apart (and the last and the first, for a closed tour).
  function check() {
    const n = puzzle.rows * puzzle.cols;
    const cells = entries();
    const bad = new Map();
    const at = new Map();
    for (const cell of cells) {
      if (cell.v === '') continue;
      if (cell.n === null || cell.n < 1 || cell.n > n) { bad.set(cell, `not a step 1..${n}`); continue; }
      if (at.has(cell.n)) { bad.set(cell, `${cell.n} twice`); bad.set(at.get(cell.n), `${cell.n} twice`); continue; }
      at.set(cell.n, cell);
    }
    const knight = (a, b) => Math.abs(a.r - b.r) * Math.abs(a.c - b.c) === 2;
    for (let k = 1; k <= n; k++) {
      const next = k === n ? (puzzle.closed ? 1 : null) : k + 1;
      if (next === null || next === k || !at.has(k) || !at.has(next)) continue;
      if (!knight(at.get(k), at.get(next))) {
        bad.set(at.get(k), `${k} to ${next} is not a knight's move`);
        bad.set(at.get(next), `${k} to ${next} is not a knight's move`);
      }
    }
    for (const cell of cells) $(`pc-${cell.r}-${cell.c}`).classList.toggle('bad', bad.has(cell));
    const filled = cells.filter((c) => c.v !== '').length;
    if (bad.size > 0) {
      const named = [...bad].map(([cell, why]) => `row ${cell.r + 1}, column ${cell.c + 1} (${why})`);
      say(`${bad.size} ${bad.size === 1 ? 'cell breaks' : 'cells break'} a rule: ${named.join('; ')}`, true);
    } else if (filled === n) {
      say('Solved: every step is a knight\'s move.');
    } else {
      say(`No rule broken so far; ${n - filled} ${n - filled === 1 ? 'cell' : 'cells'} to fill.`);
    }
    return bad.size;
  }

  async function post(query) {
    const reply = await fetch('/api/puzzle' + query, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ puzzle: puzzleText() }),
    });
    const body = await reply.json();
    if (!reply.ok) throw new Error(body.error || `HTTP ${reply.status}`);
    return body;
  }

  async function reveal() {
    say('Looking for a completion…');
    try {
      const answer = await post(puzzle.closed ? '?closed=1' : '');
      answer.steps.forEach((row, r) => row.forEach((step, c) => setCell(r, c, String(step))));
      check();
      say('One completion, revealed.');
    } catch (e) {
      say(e.message, true);
    }
  }

  async function count() {
    $('puzzle-count').textContent = 'Counting completions…';
    try {
      const answer = await post(puzzle.closed ? '?count=1&closed=1' : '?count=1');
      const n = answer.count;
      $('puzzle-count').textContent = `${n} ${n === '1' ? 'completion' : 'completions'}` +
        (answer.reason ? ` (${answer.reason})` : '');
    } catch (e) {
      $('puzzle-count').textContent = e.message;
    }
  }

  async function make(rows, cols, seed) {
    say('Making a puzzle with exactly one completion…');
    const closed = $('puzzle-closed').checked;
    const query = new URLSearchParams({ rows, cols, seed, closed: closed ? '1' : '0' });
    const reply = await fetch('/api/puzzle/new?' + query);
    const body = await reply.json();
    if (!reply.ok) { say(body.error || `HTTP ${reply.status}`, true); return false; }
    puzzle = { rows: body.rows, cols: body.cols, closed: body.closed, cells: body.cells };
    draw();
    say(`A ${rows}x${cols} puzzle with ${body.clues} given numbers and one completion (seed ${seed}).`);
    return true;
  }

  function load(text) {
    try {
      const cells = parse(text);
      puzzle = { rows: cells.length, cols: cells[0].length, closed: $('puzzle-closed').checked, cells };
      draw();
      say('Fill in the empty cells, then check.');
      return true;
    } catch (e) {
      say(e.message, true);
      return false;
    }
  }

  async function start() {
    $('puzzle-new').addEventListener('click', () => {
      make($('puzzle-rows').value, $('puzzle-cols').value, String(Math.floor(Math.random() * 1e6)));
    });
    $('puzzle-load').addEventListener('click', () => load($('puzzle-text').value));
    $('puzzle-check').addEventListener('click', () => puzzle && check());
    $('puzzle-reveal').addEventListener('click', () => puzzle && reveal());
    $('puzzle-count-button').addEventListener('click', () => puzzle && count());
    const p = new URLSearchParams(location.search);
    // A puzzle's link opens on the puzzle: it goes first, above the board and its counts.
    if (p.get('puzzle') || p.get('pboard')) {
      const section = $('puzzle-section');
      const main = section.parentElement;
      main.insertBefore(section, main.firstElementChild);
      section.classList.add('first');
    }
    if (p.get('pclosed') === '1') $('puzzle-closed').checked = true;
    let ready = false;
    const size = /^([0-9]+)x([0-9]+)$/.exec(p.get('puzzle') || '');
    if (size) {
      $('puzzle-rows').value = size[1];
      $('puzzle-cols').value = size[2];
      ready = await make(size[1], size[2], p.get('pseed') || '0');
    } else if (p.get('pboard')) {
      ready = load(p.get('pboard').split('/').map((row) => row.split(',').join(' ')).join('\n'));
      for (const [name, value] of p) {
        const at = /^t([0-9]+)_([0-9]+)$/.exec(name);
        if (ready && at && $(`pc-${at[1]}-${at[2]}`)) setCell(at[1], at[2], value);
      }
    }
    if (!ready) return;
    if (p.get('check') === '1') check();
    if (p.get('pcount') === '1') await count();
    if (p.get('reveal') === '1') await reveal();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
