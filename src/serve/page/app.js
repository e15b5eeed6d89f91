'use strict';
// The page of `knights serve`. Its state is its address,
// /?rows=6&cols=6&kind=open&row=0&col=0[&to_row=5&to_col=4][&ends=1][&seed=0], so a link shows
// the same board, squares and tour, and the back button walks back through them. Everything it
// shows comes from the server's API: the counts, how each was found (`how`), the colours of the
// pictures (the server's CSS variables and its tour replies) and what went wrong (`kind`), which
// the page says in its own words with what can be done instead.

const SVG = 'http://www.w3.org/2000/svg';
const CELL = 48;                    // the side of a square in the drawings' units
const MAX_DRAWN_SQUARES = 10000;    // larger boards are not drawn square by square
const POLL_MS = 500;
const TILE_WIDTH = CELL * 0.88;     // the room a tile's number may take
const MIN_TILE_TEXT = 9;            // below this a number is written short (in the drawing's units)

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const reducedMotion = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

// The page's state, in one place: what it shows and what it waits for.
const state = {
  view: null,               // what is shown: {rows, cols, kind, row, col, to_row, to_col, ends, seed} (strings)
  boardKey: '',             // the board and table the heatmap shows
  boardData: null,          // its count reply (null while unknown)
  boardToken: 0,            // newer requests make older replies stale
  tourToken: 0,
  countToken: 0,
  currentJob: null,         // the job the status line follows
  followed: new Set(),      // the running jobs this page waits for
  tour: null,               // the tour shown: the server's reply
  tourParts: null,          // its drawing's elements
  step: 0,                  // the knight's step, from 0
  timer: null,              // the animation's timer while it plays
  firstShow: true,          // the address the page was opened on
};

// ------------------------------------------------------------------ the address

function readAddress() {
  const p = new URLSearchParams(location.search);
  const text = (name, fallback) => (p.has(name) && p.get(name) !== '' ? p.get(name) : fallback);
  return {
    rows: text('rows', '5'),
    cols: text('cols', '5'),
    kind: p.get('kind') === 'closed' ? 'closed' : 'open',
    row: text('row', null),
    col: text('col', null),
    to_row: text('to_row', null),
    to_col: text('to_col', null),
    ends: p.get('ends') === '1',
    seed: text('seed', '0'),
  };
}

const hasStart = (s) => s.row !== null && s.col !== null;
const hasEnd = (s) => hasStart(s) && s.kind === 'open' && s.to_row !== null && s.to_col !== null;
const showsEnds = (s) => hasStart(s) && s.kind === 'open' && s.ends;

function address(s) {
  const p = new URLSearchParams({ rows: s.rows, cols: s.cols, kind: s.kind });
  if (hasStart(s)) {
    p.set('row', s.row);
    p.set('col', s.col);
    if (hasEnd(s)) {
      p.set('to_row', s.to_row);
      p.set('to_col', s.to_col);
    }
    if (showsEnds(s)) p.set('ends', '1');
    if (s.seed !== '0') p.set('seed', s.seed);
  }
  return '/?' + p.toString();
}

function go(s) {
  history.pushState(null, '', address(s));
  show(s);
}

window.addEventListener('popstate', () => show(readAddress()));

// A board the address names: two whole numbers from 1 (the server checks the rest).
const isSide = (text) => /^[1-9][0-9]*$/.test(text);
const sq = (r, c) => `(${r}, ${c})`;

function show(s) {
  state.view = s;
  $('rows').value = s.rows;
  $('cols').value = s.cols;
  document.querySelector(`input[name=kind][value=${s.kind}]`).checked = true;
  const key = `${s.rows}x${s.cols}:${s.kind}` + (showsEnds(s) ? `:ends:${s.row},${s.col}` : '');
  if (key !== state.boardKey) {
    state.boardKey = key;
    loadBoard(s);
  } else {
    markSelected();
  }
  $('pick').hidden = !(hasStart(s) && s.kind === 'open');
  if (!hasStart(s)) document.querySelector('input[name=pick][value=start]').checked = true;
  if (hasStart(s)) {
    loadTour(s);
  } else {
    state.tourToken++;
    state.countToken++;
    stopAnimation();
    $('tour-section').hidden = true;
  }
  const board = isSide(s.rows) && isSide(s.cols) ? `${s.rows}×${s.cols}` : null;
  document.title = board === null ? 'knights: not a board'
    : `knights: ${board} ${s.kind}` + (hasStart(s) ? ` from ${sq(s.row, s.col)}` : '') +
      (hasEnd(s) ? ` to ${sq(s.to_row, s.to_col)}` : '');
  // A link that asks for a tour, opened on a phone: the tour first, above the fold, and the
  // board after it.
  if (state.firstShow && hasStart(s) && window.matchMedia('(max-width: 760px)').matches) {
    $('layout').classList.add('tour-first');
  }
  state.firstShow = false;
}

// ------------------------------------------------------------------ talking to the server

async function getJSON(url, options) {
  let response;
  try {
    response = await fetch(url, options);
  } catch (e) {
    return { status: 0, body: { error: 'the server cannot be reached: ' + e.message, kind: 'unreachable' } };
  }
  let body = null;
  try {
    body = await response.json();
  } catch (_) {
    body = { error: `the server answered ${response.status} without JSON`, kind: 'internal' };
  }
  return { status: response.status, body };
}

// Says to the server that this page no longer waits for `job`: the last client gone cancels it
// (what it finished is kept). A beacon still goes out while the page closes.
function leave(job) {
  if (!state.followed.delete(job)) return;
  const url = job + '/leave';
  if (!(navigator.sendBeacon && navigator.sendBeacon(url))) {
    fetch(url, { method: 'POST', keepalive: true }).catch(() => {});
  }
}

window.addEventListener('pagehide', () => [...state.followed].forEach(leave));

// A count: answered at once (200), or a job (202) followed until it ends. Returns null when a
// newer request made this one stale (and leaves its job).
async function countOf(params, isCurrent, onProgress) {
  let { status, body } = await getJSON('/api/count?' + new URLSearchParams(params));
  let job = null;
  const stale = () => {
    if (job) leave(job);
    return null;
  };
  while (status === 202 || (status === 200 && body && body.state === 'running')) {
    job = body.job;
    state.followed.add(job);
    if (!isCurrent()) return stale();
    onProgress(body);
    await sleep(POLL_MS);
    if (!isCurrent()) return stale();
    ({ status, body } = await getJSON(job));
    if (status === 200 && body.state && body.state !== 'running') {
      state.followed.delete(job);
      return body.state === 'done'
        ? { status: 200, body: body.answer }
        : { status: body.status, body: { error: body.error, kind: body.kind } };
    }
  }
  if (job) state.followed.delete(job);
  return isCurrent() ? { status, body } : null;
}

function setStatus(text, kind) {
  $('status-text').textContent = text;
  $('status').classList.toggle('error', kind === 'error');
  const busy = kind === 'busy';
  $('status-progress').hidden = !busy;
  $('cancel').hidden = !busy || !state.currentJob;
}

$('cancel').addEventListener('click', async () => {
  if (!state.currentJob) return;
  $('cancel').disabled = true;
  await getJSON(state.currentJob, { method: 'DELETE' });
  $('cancel').disabled = false;
});

// ------------------------------------------------------------------ numbers for people

// Digits in groups of three, with thin spaces.
function group(digits) {
  return String(digits).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
}

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';

// A count too long for a tile, in three figures: 19049869096 → ['1.90·', '10¹⁰'].
function shortForm(digits) {
  let exponent = digits.length - 1;
  let rounded = Math.round(Number(digits.slice(0, 4)) / 10);   // three figures
  if (rounded >= 1000) {   // 9995… rounds up to the next power of ten
    rounded = 100;
    exponent += 1;
  }
  const mantissa = `${String(rounded)[0]}.${String(rounded).slice(1)}`;
  const power = String(exponent).split('').map((d) => SUPERSCRIPT[Number(d)]).join('');
  return [`${mantissa}·`, `10${power}`];
}

// About how wide a line of text is, in units of its font size (a thin space is narrow).
const textWidth = (text) => [...text].reduce((width, ch) => width + (ch === '\u202f' ? 0.25 : 0.57), 0);

// What a tile says: its count grouped, at a size that fits, or written short in two lines when
// the digits would be too small to read (the exact digits are in its title and the readout).
function tileText(count) {
  const grouped = group(count);
  const size = Math.min(CELL / 3, TILE_WIDTH / textWidth(grouped));
  if (size >= MIN_TILE_TEXT) return { lines: [grouped], size };
  const lines = shortForm(count);
  return { lines, size: Math.min(CELL / 3.2, TILE_WIDTH / Math.max(...lines.map(textWidth))) };
}

// ------------------------------------------------------------------ what went wrong

// The page's own words for an error the server sent (its `kind`), with what can be done here;
// the server's line stays readable under "The server's words".
function explain(body, s) {
  const board = `${s.rows}×${s.cols}`;
  const link = (text, change) => ({ text, href: address({ ...state.view, ...change }) });
  // Where a start's tours end, refused: the server says what the view would cost and how to
  // get it, in words of its own the page has no better version of.
  if (showsEnds(s) && body.error && ['beyond_one_machine', 'too_large', 'memory'].includes(body.kind)) {
    return {
      text: `Where the tours from ${sq(s.row, s.col)} end is not shown here: ${body.error}.`,
      links: [link(`the counts from every square of ${board}`, { ends: false })],
    };
  }
  switch (body.kind) {
    case 'beyond_one_machine':
      return {
        text: `Counting the open tours of the ${board} board from each square is more than one machine can finish. ` +
          'Two things can be counted here instead:',
        links: [
          link(`the closed tours of ${board} instead`, { kind: 'closed', row: null, col: null, ends: false }),
          { text: 'tours between two squares: choose a start on the board below, then its end (Shift with a click, or "the end" under the board)', href: null },
        ],
      };
    case 'beyond_engines':
      return {
        text: `The ${board} board is too large for any of the counting engines here, so its tours cannot be counted. ` +
          'You can still choose a square to watch a tour from it.',
        links: [link('the 8×8 board\u2019s closed tours instead', {
          rows: '8', cols: '8', kind: 'closed', row: null, col: null, ends: false,
        })],
      };
    case 'bad_input':
      return {
        text: isSide(s.rows) && isSide(s.cols) ? 'This link asks for something the server cannot read.'
          : 'This link does not name a board: rows and columns are whole numbers from 1.',
        links: [link('the 5×5 board', { rows: '5', cols: '5', kind: 'open', row: null, col: null, ends: false })],
      };
    case 'too_large':
      return { text: `The ${board} board is larger than this server counts or draws tours for.`, links: [] };
    case 'busy':
      return { text: 'The server is busy with other counts. Try again when one finishes.', links: [link('try again', {})] };
    case 'client_share':
      // A count this page left a moment ago may still be stopping: trying again soon works.
      return {
        text: 'This machine already runs its share of the server\u2019s counts (this page or another). Try again when one finishes.',
        links: [link('try again', {})],
      };
    case 'cancelled':
      return { text: 'The count was cancelled before it finished; what it finished is kept, and asking again goes on from there.', links: [link('count again', {})] };
    case 'memory':
      return { text: 'The count needs more memory than this server allows its counts.', links: [] };
    case 'gave_up':
      return {
        text: 'No tour between these two squares was found in the time this server gives a search. That does not mean there is none.',
        links: [link('try another search', { seed: String((Number(s.seed) || 0) + 1) })],
      };
    case 'unreachable':
      return { text: 'The server cannot be reached: is `knights serve` still running?', links: [link('try again', {})] };
    default:
      // A refusal the page has no words of its own for: the server's line, not a bare failure.
      return { text: body.error ? `The server says: ${body.error}` : 'Something went wrong on the server.', links: [] };
  }
}

function showMessage(body, s) {
  const { text, links } = explain(body, s);
  $('message-text').textContent = text;
  const list = $('message-links');
  list.replaceChildren();
  for (const { text: words, href } of links) {
    const item = document.createElement('li');
    if (href) {
      const a = document.createElement('a');
      a.href = href;
      a.textContent = words;
      a.addEventListener('click', (event) => {
        event.preventDefault();
        history.pushState(null, '', href);
        show(readAddress());
      });
      item.append(a);
    } else {
      item.textContent = words;
    }
    list.append(item);
  }
  $('message-detail').textContent = body.error || '';
  $('message').hidden = false;
}

// ------------------------------------------------------------------ the board and its counts

async function loadBoard(s) {
  const token = ++state.boardToken;
  const isCurrent = () => token === state.boardToken;
  state.boardData = null;
  state.currentJob = null;
  const ends = showsEnds(s);
  const named = isSide(s.rows) && isSide(s.cols);
  $('board-title').textContent = !named ? 'Not a board'
    : ends ? `Where the open tours from ${sq(s.row, s.col)} end`
      : `${s.kind === 'closed' ? 'Closed' : 'Open'} tours of the ${s.rows}×${s.cols} board`;
  $('heatmap').replaceChildren();
  $('totals').replaceChildren();
  $('legend').hidden = true;
  $('csv-link').hidden = true;
  $('message').hidden = true;
  $('readout').textContent = '';
  const rows = Number(s.rows), cols = Number(s.cols);
  $('hint').textContent = ends
    ? 'Each square shows how many of the tours end there. Choose one to see a tour that ends on it.'
    : s.kind === 'closed'
      ? 'A closed tour passes through every square, so every square has the same count. Choose a square to see a closed tour through it.'
      : 'Choose a square (click it, or move with the arrow keys and press Enter) to see a tour from it. Shift with a click or Enter chooses the end of the tour instead.';
  $('hint').hidden = !named;
  $('legend-text').textContent = ends
    ? `tours from ${sq(s.row, s.col)} that end on the square (logarithmic scale; grey: none)`
    : 'tours from the square (logarithmic scale; grey: none)';
  setStatus(named ? 'Counting…' : '', named ? 'busy' : undefined);
  // The plain board at once: its squares can be chosen for tours while the counts come. A link
  // that names no board still asks the server, whose words are shown under the page's.
  if (named) drawBoard(rows, cols, null);
  const started = Date.now();
  const params = ends ? { rows: s.rows, cols: s.cols, row: s.row, col: s.col, ends: '1' }
    : { rows: s.rows, cols: s.cols, kind: s.kind };
  const reply = await countOf(params, isCurrent, (job) => {
    state.currentJob = job.job;
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    const bar = $('status-progress');
    let done = '';
    if (job.work_planned > 0) {
      bar.max = job.work_planned;
      bar.value = job.work_done;
      const percent = Math.floor((100 * job.work_done) / job.work_planned);
      done = `: about ${percent} % of the work done (${job.computed} of ${job.planned} answers)`;
    } else {
      bar.removeAttribute('value');
    }
    setStatus(`Counting${done}, ${seconds} s so far…`, 'busy');
  });
  if (!reply) return;
  state.currentJob = null;
  if (reply.status !== 200) {
    setStatus('');
    showMessage(reply.body, s);
    // Past what the engines count, a board still has tours: it stays drawn plain, to choose a
    // square. A board that is not one goes.
    if (reply.body.kind === 'bad_input') $('heatmap').replaceChildren();
    return;
  }
  state.boardData = reply.body;
  setStatus(sentence(state.boardData.how));
  drawBoard(rows, cols, state.boardData);
  showTotals(state.boardData, s);
  const csv = $('csv-link');
  csv.href = '/api/count?' + new URLSearchParams({ ...params, format: 'csv' });
  csv.download = ends ? `knights-${s.rows}x${s.cols}-ends-${s.row}-${s.col}.csv`
    : `knights-${s.rows}x${s.cols}-${s.kind}.csv`;
  csv.textContent = s.kind === 'closed' ? 'Download the counts (CSV)' : 'Download the table (CSV)';
  csv.hidden = false;
}

// The server's words for how an answer was found, as a sentence.
function sentence(how) {
  return how ? `${how[0].toUpperCase()}${how.slice(1)}.` : '';
}

// The count on a square of a table (null where the board has none per square).
function countAt(data, r, c) {
  if (!data || !data.counts) return null;
  return (data.counts[r] && data.counts[r][c]) || null;
}

// Exact comparison of counts written as strings of digits.
function compareDigits(a, b) {
  return a.length !== b.length ? a.length - b.length : (a < b ? -1 : a > b ? 1 : 0);
}

function showTotals(data, s) {
  const dl = $('totals');
  const add = (term, value) => {
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.textContent = value;
    dl.append(dt, dd);
  };
  if (data.kind === 'closed') {
    add('Closed tours (each once)', group(data.cycles));
    add('Directed (each way, from each square)', group(data.directed));
  } else if (data.kind === 'ends') {
    add(`Open tours from ${sq(s.row, s.col)}`, group(data.count));
  } else {
    add('Open tours, directed (each way)', group(data.total_directed));
    add('Undirected (each once)', group(data.total_undirected));
  }
  if (data.reason) add('Why', data.reason);
  const nonzero = data.counts ? data.counts.flat().filter((c) => c !== '0').sort(compareDigits) : [];
  if (data.heat && nonzero.length > 0) {
    $('legend-bar').style.background = `linear-gradient(to right, ${data.heat.legend.join(', ')})`;
    $('legend-low').textContent = group(nonzero[0]);
    $('legend-high').textContent = group(nonzero[nonzero.length - 1]);
    $('legend').hidden = false;
  }
}

function svgElement(name, attributes, parent) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes || {})) element.setAttribute(key, value);
  if (parent) parent.append(element);
  return element;
}

// The board: squares coloured by their counts (the server's colours, the scale of
// `count --format svg`) with the numbers in them, or plain (the server's square colours) when
// there is no count per square.
function drawBoard(rows, cols, data) {
  const holder = $('heatmap');
  holder.replaceChildren();
  if (!(Number.isInteger(rows) && Number.isInteger(cols) && rows >= 1 && cols >= 1)) return;
  if (rows * cols > MAX_DRAWN_SQUARES) {
    holder.textContent = `The ${rows}×${cols} board is too large to draw here; ` +
      'type a square in the address (row=, col=) to see a tour from it.';
    return;
  }
  const svg = svgElement('svg', {
    viewBox: `0 0 ${cols * CELL} ${rows * CELL}`,
    role: 'group',
    'aria-label': `the ${rows}×${cols} board: choose a square`,
  }, holder);
  const heat = data && data.heat && data.counts ? data.heat : null;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const count = countAt(data, r, c);
      const words = count !== null ? `${sq(r, c)}: ${group(count)} tour${count === '1' ? '' : 's'}` : sq(r, c);
      const square = svgElement('g', {
        class: 'sq',
        role: 'button',
        tabindex: '-1',
        'data-row': r,
        'data-col': c,
        'aria-label': words,
      }, svg);
      const rect = svgElement('rect', {
        class: 'cell', x: c * CELL, y: r * CELL, width: CELL, height: CELL,
      }, square);
      if (heat) rect.setAttribute('fill', heat.fill[r][c]);
      else rect.style.fill = (r + c) % 2 === 0 ? 'var(--light)' : 'var(--dark)';
      svgElement('title', {}, square).textContent = words;
      if (count !== null) {
        const { lines, size } = tileText(count);
        const zero = count === '0';
        const text = svgElement('text', {
          x: c * CELL + CELL / 2, y: r * CELL + CELL / 2, 'font-size': (zero ? size * 0.7 : size).toFixed(1),
          'text-anchor': 'middle', 'dominant-baseline': 'middle', fill: heat.ink[r][c],
          'fill-opacity': zero ? 0.55 : 1,
        }, square);
        if (lines.length === 1) {
          text.textContent = lines[0];
        } else {
          lines.forEach((line, i) => {
            const span = svgElement('tspan', { x: c * CELL + CELL / 2, dy: i === 0 ? `${-0.55 * size}` : `${1.1 * size}` }, text);
            span.textContent = line;
          });
        }
      }
    }
  }
  svg.addEventListener('click', (event) => {
    const square = event.target.closest('.sq');
    if (square) choose(Number(square.dataset.row), Number(square.dataset.col), event.shiftKey);
  });
  svg.addEventListener('keydown', (event) => onBoardKey(event, rows, cols));
  // The exact count of the square under the pointer or the focus, in words.
  const readout = (event) => {
    const square = event.target.closest && event.target.closest('.sq');
    if (square) $('readout').textContent = square.getAttribute('aria-label');
  };
  svg.addEventListener('focusin', readout);
  svg.addEventListener('pointerover', readout);
  markSelected();
}

function squareElement(r, c) {
  return document.querySelector(`#heatmap .sq[data-row="${r}"][data-col="${c}"]`);
}

// One square of the board is in the tab order (the chosen one, else the corner); the arrow
// keys move between squares and Enter or space chooses (with Shift: the end).
function markSelected() {
  const squares = document.querySelectorAll('#heatmap .sq');
  squares.forEach((element) => {
    element.classList.remove('selected', 'end');
    element.setAttribute('tabindex', '-1');
    element.removeAttribute('aria-pressed');
  });
  const chosen = state.view && hasStart(state.view) ? squareElement(state.view.row, state.view.col) : null;
  if (chosen) {
    chosen.classList.add('selected');
    chosen.setAttribute('aria-pressed', 'true');
  }
  const end = state.view && hasEnd(state.view) ? squareElement(state.view.to_row, state.view.to_col) : null;
  if (end) end.classList.add('end');
  const focusable = chosen || squares[0];
  if (focusable) focusable.setAttribute('tabindex', '0');
}

function onBoardKey(event, rows, cols) {
  const square = event.target.closest && event.target.closest('.sq');
  if (!square) return;
  let r = Number(square.dataset.row), c = Number(square.dataset.col);
  switch (event.key) {
    case 'ArrowUp': r = Math.max(0, r - 1); break;
    case 'ArrowDown': r = Math.min(rows - 1, r + 1); break;
    case 'ArrowLeft': c = Math.max(0, c - 1); break;
    case 'ArrowRight': c = Math.min(cols - 1, c + 1); break;
    case 'Home': c = 0; break;
    case 'End': c = cols - 1; break;
    case 'Enter': case ' ':
      event.preventDefault();
      choose(r, c, event.shiftKey);
      return;
    default: return;
  }
  event.preventDefault();
  square.setAttribute('tabindex', '-1');
  const next = squareElement(r, c);
  next.setAttribute('tabindex', '0');
  next.focus();
}

// A square chosen: the start, or the end of tours from the chosen start (Shift, the "end"
// choice, or any square of a start's ends).
function choose(r, c, asEnd) {
  const pickEnd = asEnd || document.querySelector('input[name=pick]:checked').value === 'end' || showsEnds(state.view);
  const sameAsStart = hasStart(state.view) && String(r) === state.view.row && String(c) === state.view.col;
  if (pickEnd && hasStart(state.view) && state.view.kind === 'open' && !sameAsStart) {
    go({ ...state.view, to_row: String(r), to_col: String(c), seed: '0' });
  } else {
    go({ ...state.view, row: String(r), col: String(c), to_row: null, to_col: null, ends: false, seed: '0' });
  }
  revealTour();
}

// On a narrow screen the tour is below the board: bring it into view when a square is chosen.
function revealTour() {
  const section = $('tour-section');
  if (!section.hidden && section.getBoundingClientRect().top > window.innerHeight * 0.6) {
    section.scrollIntoView({ behavior: reducedMotion ? 'auto' : 'smooth', block: 'start' });
  }
}

$('board-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const kind = document.querySelector('input[name=kind]:checked').value;
  go({
    rows: $('rows').value.trim(), cols: $('cols').value.trim(), kind,
    row: null, col: null, to_row: null, to_col: null, ends: false, seed: '0',
  });
});

$('ends').addEventListener('click', () => {
  go({ ...state.view, ends: !showsEnds(state.view) });
});
$('clear-end').addEventListener('click', () => {
  go({ ...state.view, to_row: null, to_col: null, seed: '0' });
});

// ------------------------------------------------------------------ a tour, move by move

// The tour's functions are in tour.js; here its buttons and keys.

$('play').addEventListener('click', togglePlay);
$('back').addEventListener('click', () => { stopAnimation(); setStep(state.step - 1); });
$('forward').addEventListener('click', () => { stopAnimation(); setStep(state.step + 1); });
$('first').addEventListener('click', () => { stopAnimation(); setStep(0); });
$('last').addEventListener('click', () => { stopAnimation(); setStep(state.tour ? state.tour.squares.length - 1 : 0); });
$('speed').addEventListener('input', () => {
  $('speed').setAttribute('aria-valuetext', `${speed()} moves a second`);
  if (state.timer !== null) play();
});
$('another').addEventListener('click', () => {
  go({ ...state.view, seed: String((Number(state.view.seed) || 0) + 1) });
});

// Keys in the tour's panel: space plays or pauses, the arrows step, Home and End jump.
$('tour-section').addEventListener('keydown', (event) => {
  const tag = event.target.tagName;
  if (tag === 'INPUT' || (tag === 'BUTTON' && (event.key === ' ' || event.key === 'Enter'))) return;
  const actions = {
    ' ': togglePlay,
    ArrowLeft: () => { stopAnimation(); setStep(state.step - 1); },
    ArrowRight: () => { stopAnimation(); setStep(state.step + 1); },
    Home: () => { stopAnimation(); setStep(0); },
    End: () => { stopAnimation(); setStep(state.tour ? state.tour.squares.length - 1 : 0); },
  };
  if (actions[event.key]) {
    event.preventDefault();
    actions[event.key]();
  }
});

show(readAddress());
