'use strict';
// The page of `knights serve`. Its state is its address, /?rows=6&cols=6&kind=open&row=0&col=0&seed=0,
// so a link shows the same board, square and tour, and the back button walks back through them.
// Everything it shows comes from the server's API; the server checks every parameter and its
// one-line messages are shown as they are.

const SVG = 'http://www.w3.org/2000/svg';
const CELL = 48;                    // the side of a square in the drawings' units
const MAX_DRAWN_SQUARES = 10000;    // larger boards are not drawn square by square
const NUMBERS_UP_TO = 16;           // step numbers on boards up to 16x16, as the SVG has them
const POLL_MS = 500;
const LIGHT = '#f0d9b5', DARK = '#b58863';   // the squares of `knights tour --format svg`

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const reducedMotion = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

let view = null;        // what is shown: {rows, cols, kind, row, col, seed} (strings, as in the address)
let boardKey = '';      // the board the heatmap shows
let boardData = null;   // its count reply (null while unknown)
let boardToken = 0;     // newer requests make older replies stale
let tourToken = 0;
let currentJob = null;  // the job the status line follows
let tour = null;        // the tour shown: {rows, cols, closed, squares}
let tourParts = null;   // its drawing's elements
let step = 0;           // the knight's step, from 0
let timer = null;       // the animation's timer while it plays

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
    seed: text('seed', '0'),
  };
}

function address(s) {
  const p = new URLSearchParams({ rows: s.rows, cols: s.cols, kind: s.kind });
  if (s.row !== null && s.col !== null) {
    p.set('row', s.row);
    p.set('col', s.col);
    if (s.seed !== '0') p.set('seed', s.seed);
  }
  return '/?' + p.toString();
}

function go(s) {
  history.pushState(null, '', address(s));
  show(s);
}

window.addEventListener('popstate', () => show(readAddress()));

function show(s) {
  view = s;
  $('rows').value = s.rows;
  $('cols').value = s.cols;
  document.querySelector(`input[name=kind][value=${s.kind}]`).checked = true;
  const key = `${s.rows}x${s.cols}:${s.kind}`;
  if (key !== boardKey) {
    boardKey = key;
    loadBoard(s);
  } else {
    markSelected();
  }
  if (s.row !== null && s.col !== null) {
    loadTour(s);
  } else {
    tourToken++;
    stopAnimation();
    $('tour-section').hidden = true;
  }
  document.title = `knights: ${s.rows}×${s.cols} ${s.kind}` +
    (s.row !== null ? ` from (${s.row}, ${s.col})` : '');
}

// ------------------------------------------------------------------ talking to the server

async function getJSON(url, options) {
  let response;
  try {
    response = await fetch(url, options);
  } catch (e) {
    return { status: 0, body: { error: 'the server cannot be reached: ' + e.message } };
  }
  let body = null;
  try {
    body = await response.json();
  } catch (_) {
    body = { error: `the server answered ${response.status} without JSON` };
  }
  return { status: response.status, body };
}

// A count: answered at once (200), or a job (202) followed until it ends. Returns null when a
// newer request made this one stale.
async function countOf(params, isCurrent, onProgress) {
  let { status, body } = await getJSON('/api/count?' + new URLSearchParams(params));
  while (status === 202 || (status === 200 && body && body.state === 'running')) {
    if (!isCurrent()) return null;
    onProgress(body);
    await sleep(POLL_MS);
    if (!isCurrent()) return null;
    ({ status, body } = await getJSON(body.job));
    if (status === 200 && body.state && body.state !== 'running') {
      return body.state === 'done'
        ? { status: 200, body: body.answer }
        : { status: body.status, body: { error: body.error } };
    }
  }
  return isCurrent() ? { status, body } : null;
}

function setStatus(text, kind) {
  $('status-text').textContent = text;
  $('status').classList.toggle('error', kind === 'error');
  const busy = kind === 'busy';
  $('status-progress').hidden = !busy;
  $('cancel').hidden = !busy || !currentJob;
}

$('cancel').addEventListener('click', async () => {
  if (!currentJob) return;
  $('cancel').disabled = true;
  await getJSON(currentJob, { method: 'DELETE' });
  $('cancel').disabled = false;
});

// ------------------------------------------------------------------ the board and its counts

async function loadBoard(s) {
  const token = ++boardToken;
  const isCurrent = () => token === boardToken;
  boardData = null;
  currentJob = null;
  $('board-title').textContent =
    `${s.kind === 'closed' ? 'Closed' : 'Open'} tours of the ${s.rows}×${s.cols} board`;
  $('heatmap').replaceChildren();
  $('totals').replaceChildren();
  $('legend').hidden = true;
  $('csv-link').hidden = true;
  setStatus('Counting…', 'busy');
  const rows = Number(s.rows), cols = Number(s.cols);
  // The plain board at once: its squares can be chosen for tours while the counts come.
  drawBoard(rows, cols, null);
  const started = Date.now();
  const reply = await countOf({ rows: s.rows, cols: s.cols, kind: s.kind }, isCurrent, (job) => {
    currentJob = job.job;
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    const bar = $('status-progress');
    if (job.planned > 0) {
      bar.max = job.planned;
      bar.value = job.computed;
    } else {
      bar.removeAttribute('value');
    }
    const done = job.planned > 0 ? `: ${job.computed} of ${job.planned} answers computed` : '';
    setStatus(`Counting${done} (${seconds} s)…`, 'busy');
  });
  if (!reply) return;
  currentJob = null;
  if (reply.status !== 200) {
    setStatus(reply.body.error || `the server answered ${reply.status}`, 'error');
    // Past what the engines count, a board still has tours: it stays drawn plain, to choose a
    // square. A board that is not one goes.
    if (reply.status === 400) $('heatmap').replaceChildren();
    return;
  }
  boardData = reply.body;
  setStatus(sourceText(boardData));
  drawBoard(rows, cols, boardData);
  showTotals(boardData);
  const csv = $('csv-link');
  csv.href = '/api/count?' + new URLSearchParams({ rows: s.rows, cols: s.cols, kind: s.kind, format: 'csv' });
  csv.download = `knights-${s.rows}x${s.cols}-${s.kind}.csv`;
  csv.textContent = s.kind === 'closed' ? 'Download the counts (CSV)' : 'Download the table (CSV)';
  csv.hidden = false;
}

function sourceText(data) {
  const seconds = data.seconds < 0.001 ? 'less than a millisecond'
    : `${Number(data.seconds).toFixed(data.seconds < 1 ? 3 : 1)} s`;
  // A total with the engine 'sum' was added up from its starts' counts: no engine counted it.
  const how = data.engine === 'sum' ? `added up from its starts (${seconds} in all)`
    : `computed by ${data.engine === 'theorem' ? 'an existence theorem' : `the ${data.engine} engine`} in ${seconds}`;
  return data.source === 'store'
    ? `From the answer store (${how}).`
    : `${how[0].toUpperCase()}${how.slice(1)}, and kept in the store.`;
}

// The count on a square: the table's, or the closed count that every square shares.
function countAt(data, r, c) {
  if (!data) return null;
  if (data.counts) return (data.counts[r] && data.counts[r][c]) || null;
  if (data.per_square !== undefined && r >= 0 && r < data.rows && c >= 0 && c < data.cols) {
    return data.per_square;
  }
  return null;
}

// Exact comparison of counts written as strings of digits.
function compareDigits(a, b) {
  return a.length !== b.length ? a.length - b.length : (a < b ? -1 : a > b ? 1 : 0);
}

function group(digits) {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
}

function showTotals(data) {
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
    add('Directed (each way)', group(data.directed));
    add('From any one square', group(data.per_square));
  } else {
    add('Open tours, directed (each way)', group(data.total_directed));
    add('Undirected (each once)', group(data.total_undirected));
  }
  if (data.reason) add('Why', data.reason);
  const counts = data.counts ? data.counts.flat() : [data.per_square];
  const nonzero = counts.filter((c) => c !== '0').sort(compareDigits);
  // A closed count is the same on every square: one colour, no scale to read.
  if (data.heat && nonzero.length > 0 && data.kind !== 'closed') {
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
// `count --format svg`) with the numbers in them, or plain when the counts are not known.
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
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const count = countAt(data, r, c);
      const square = svgElement('g', {
        class: 'sq',
        role: 'button',
        tabindex: '-1',
        'data-row': r,
        'data-col': c,
        'aria-label': `row ${r}, column ${c}` + (count !== null ? `: ${count} tours` : ''),
      }, svg);
      const fill = data && data.heat ? data.heat.fill[data.counts ? r : 0][data.counts ? c : 0]
        : ((r + c) % 2 === 0 ? LIGHT : DARK);
      svgElement('rect', {
        class: 'cell', x: c * CELL, y: r * CELL, width: CELL, height: CELL,
        fill, stroke: '#ffffff', 'stroke-width': 1,
      }, square);
      svgElement('title', {}, square).textContent = `(${r}, ${c})` + (count !== null ? `: ${count}` : '');
      if (count !== null) {
        const ink = data.heat.ink[data.counts ? r : 0][data.counts ? c : 0];
        // The size rule of the SVG heatmap: long numbers get smaller.
        const size = Math.max(3, Math.min(CELL * 1.6 / (count.length + 1), CELL / 3));
        const text = svgElement('text', {
          x: c * CELL + CELL / 2, y: r * CELL + CELL / 2, 'font-size': size.toFixed(1),
          'text-anchor': 'middle', 'dominant-baseline': 'middle', fill: ink,
        }, square);
        text.textContent = count;
      }
    }
  }
  svg.addEventListener('click', (event) => {
    const square = event.target.closest('.sq');
    if (square) choose(Number(square.dataset.row), Number(square.dataset.col));
  });
  svg.addEventListener('keydown', (event) => onBoardKey(event, rows, cols));
  markSelected();
}

function squareElement(r, c) {
  return document.querySelector(`#heatmap .sq[data-row="${r}"][data-col="${c}"]`);
}

// One square of the board is in the tab order (the chosen one, else the corner); the arrow
// keys move between squares and Enter or space chooses.
function markSelected() {
  const squares = document.querySelectorAll('#heatmap .sq');
  squares.forEach((sq) => {
    sq.classList.remove('selected');
    sq.setAttribute('tabindex', '-1');
    sq.removeAttribute('aria-pressed');
  });
  const chosen = view && view.row !== null ? squareElement(view.row, view.col) : null;
  if (chosen) {
    chosen.classList.add('selected');
    chosen.setAttribute('aria-pressed', 'true');
  }
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
      choose(r, c);
      return;
    default: return;
  }
  event.preventDefault();
  square.setAttribute('tabindex', '-1');
  const next = squareElement(r, c);
  next.setAttribute('tabindex', '0');
  next.focus();
}

function choose(r, c) {
  go({ ...view, row: String(r), col: String(c), seed: '0' });
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
  go({ rows: $('rows').value.trim(), cols: $('cols').value.trim(), kind, row: null, col: null, seed: '0' });
});

// ------------------------------------------------------------------ a tour, move by move

async function loadTour(s) {
  const token = ++tourToken;
  const isCurrent = () => token === tourToken;
  stopAnimation();
  tour = null;
  const section = $('tour-section');
  section.hidden = false;
  $('tour-title').textContent =
    `${s.kind === 'closed' ? 'A closed tour' : 'An open tour'} from (${s.row}, ${s.col})`;
  $('no-tour').hidden = true;
  $('tour-error').hidden = true;
  $('tour-view').hidden = true;
  showSquareCount(s, isCurrent);
  const params = { rows: s.rows, cols: s.cols, row: s.row, col: s.col, kind: s.kind, seed: s.seed };
  const { status, body } = await getJSON('/api/tour?' + new URLSearchParams(params));
  if (!isCurrent()) return;
  if (status === 422 && body.no_tour) {
    $('no-tour').textContent = body.error;
    $('no-tour').hidden = false;
    return;
  }
  if (status !== 200) {
    $('tour-error').textContent = body.error || `the server answered ${status}`;
    $('tour-error').hidden = false;
    return;
  }
  tour = body;
  drawTour();
  $('seed-text').textContent = `(seed ${s.seed})`;
  const svgLink = $('svg-link');
  svgLink.href = '/api/tour?' + new URLSearchParams({ ...params, format: 'svg' });
  svgLink.download = `knights-tour-${s.rows}x${s.cols}-${s.row}-${s.col}-${s.kind}-${s.seed}.svg`;
  const jsonLink = $('json-link');
  jsonLink.href = '/api/tour?' + new URLSearchParams(params);
  jsonLink.download = `knights-tour-${s.rows}x${s.cols}-${s.row}-${s.col}-${s.kind}-${s.seed}.json`;
  $('tour-view').hidden = false;
  if (reducedMotion) {
    setStep(tour.squares.length - 1);
  } else {
    setStep(0);
    play();
  }
}

async function showSquareCount(s, isCurrent) {
  const line = $('square-count');
  const kind = s.kind === 'closed' ? 'closed' : 'open';
  const say = (count) => {
    line.textContent = `${kind === 'closed' ? 'Closed' : 'Open'} tours from (${s.row}, ${s.col}): ` +
      `${group(count)} (each direction counted)`;
  };
  const known = boardKey === `${s.rows}x${s.cols}:${s.kind}` ? countAt(boardData, Number(s.row), Number(s.col)) : null;
  if (known !== null) {
    say(known);
    return;
  }
  line.textContent = 'Counting the tours from this square…';
  const reply = await countOf({ rows: s.rows, cols: s.cols, row: s.row, col: s.col, kind },
    isCurrent, () => { line.textContent = 'Counting the tours from this square… (still computing)'; });
  if (!reply || !isCurrent()) return;
  if (reply.status === 200) say(reply.body.count);
  else line.textContent = reply.body.error || '';
}

function drawTour() {
  const { rows, cols, squares, closed } = tour;
  const holder = $('tour-board');
  holder.replaceChildren();
  const svg = svgElement('svg', {
    viewBox: `0 0 ${cols * CELL} ${rows * CELL}`,
    role: 'img',
    'data-squares': squares.length,
    'aria-label': `${closed ? 'a closed' : 'an open'} tour of ${squares.length} squares`,
  }, holder);
  const drawSquares = rows * cols <= MAX_DRAWN_SQUARES;
  if (drawSquares) {
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        svgElement('rect', {
          x: c * CELL, y: r * CELL, width: CELL, height: CELL, fill: (r + c) % 2 === 0 ? LIGHT : DARK,
        }, svg);
      }
    }
  } else {
    svgElement('rect', { width: cols * CELL, height: rows * CELL, fill: LIGHT }, svg);
  }
  const centre = ([r, c]) => [c * CELL + CELL / 2, r * CELL + CELL / 2];
  const path = svgElement('polyline', {
    fill: 'none', stroke: '#1f4e9a', 'stroke-width': 6, 'stroke-linejoin': 'round',
    'stroke-linecap': 'round', 'stroke-opacity': 0.85,
  }, svg);
  const [sx, sy] = centre(squares[0]);
  svgElement('circle', { cx: sx, cy: sy, r: CELL / 3, fill: '#2e9e45' }, svg);
  const [ex, ey] = centre(squares[squares.length - 1]);
  const end = svgElement('rect', {
    x: ex - CELL / 3, y: ey - CELL / 3, width: 2 * CELL / 3, height: 2 * CELL / 3, fill: '#c0392b',
  }, svg);
  const numbers = [];
  if (Math.max(rows, cols) <= NUMBERS_UP_TO) {
    squares.forEach((sq, i) => {
      const [x, y] = centre(sq);
      const text = svgElement('text', {
        x, y: y + 5, 'font-size': 15, 'text-anchor': 'middle', fill: '#111', 'font-weight': 600,
        visibility: 'hidden',
      }, svg);
      text.textContent = String(i + 1);
      numbers.push(text);
    });
  }
  const knight = svgElement('g', { class: 'knight' }, svg);
  svgElement('circle', { r: CELL * 0.3, fill: '#111', stroke: '#fff', 'stroke-width': 3 }, knight);
  svgElement('text', {
    'font-size': 22, 'text-anchor': 'middle', 'dominant-baseline': 'central', fill: '#fff',
  }, knight).textContent = '\u265E';
  tourParts = { path, end, numbers, knight, points: squares.map(centre) };
}

function setStep(next) {
  if (!tour) return;
  const last = tour.squares.length - 1;
  step = Math.max(0, Math.min(last, next));
  const { path, end, numbers, knight, points } = tourParts;
  const drawn = points.slice(0, step + 1);
  if (tour.closed && step === last && last > 0) drawn.push(points[0]);
  path.setAttribute('points', drawn.map(([x, y]) => `${x},${y}`).join(' '));
  numbers.forEach((text, i) => text.setAttribute('visibility', i <= step ? 'visible' : 'hidden'));
  end.setAttribute('visibility', step === last ? 'visible' : 'hidden');
  const [x, y] = points[step];
  knight.setAttribute('transform', `translate(${x},${y})`);
  const [r, c] = tour.squares[step];
  $('step-text').textContent = `Step ${step + 1} of ${tour.squares.length}: (${r}, ${c})` +
    (step === last ? (tour.closed ? ', a knight\u2019s move from the start' : ', the end') : '');
  $('back').disabled = $('first').disabled = step === 0;
  $('forward').disabled = $('last').disabled = step === last;
}

function speed() {
  return Number($('speed').value);
}

function play() {
  if (!tour) return;
  if (step === tour.squares.length - 1) setStep(0);
  stopAnimation();
  timer = setInterval(() => {
    if (step >= tour.squares.length - 1) {
      stopAnimation();
    } else {
      setStep(step + 1);
    }
  }, 1000 / speed());
  showPlaying(true);
}

function stopAnimation() {
  if (timer !== null) clearInterval(timer);
  timer = null;
  showPlaying(false);
}

function showPlaying(playing) {
  $('play').textContent = playing ? 'Pause' : 'Play';
}

function togglePlay() {
  if (timer !== null) stopAnimation();
  else play();
}

$('play').addEventListener('click', togglePlay);
$('back').addEventListener('click', () => { stopAnimation(); setStep(step - 1); });
$('forward').addEventListener('click', () => { stopAnimation(); setStep(step + 1); });
$('first').addEventListener('click', () => { stopAnimation(); setStep(0); });
$('last').addEventListener('click', () => { stopAnimation(); setStep(tour ? tour.squares.length - 1 : 0); });
$('speed').addEventListener('input', () => {
  $('speed').setAttribute('aria-valuetext', `${speed()} moves a second`);
  if (timer !== null) play();
});
$('another').addEventListener('click', () => {
  go({ ...view, seed: String((Number(view.seed) || 0) + 1) });
});

// Keys in the tour's panel: space plays or pauses, the arrows step, Home and End jump.
$('tour-section').addEventListener('keydown', (event) => {
  const tag = event.target.tagName;
  if (tag === 'INPUT' || (tag === 'BUTTON' && (event.key === ' ' || event.key === 'Enter'))) return;
  const actions = {
    ' ': togglePlay,
    ArrowLeft: () => { stopAnimation(); setStep(step - 1); },
    ArrowRight: () => { stopAnimation(); setStep(step + 1); },
    Home: () => { stopAnimation(); setStep(0); },
    End: () => { stopAnimation(); setStep(tour ? tour.squares.length - 1 : 0); },
  };
  if (actions[event.key]) {
    event.preventDefault();
    actions[event.key]();
  }
});

show(readAddress());
