// The page's tour, move by move: loaded before app.js (`defer` keeps the order), it only
// declares functions, which read app.js's state and helpers when they are called; app.js wires
// them to the buttons and keys.

async function loadTour(s) {
  const token = ++state.tourToken;
  const isCurrent = () => token === state.tourToken;
  stopAnimation();
  state.tour = null;
  const section = $('tour-section');
  section.hidden = false;
  const pair = hasEnd(s);
  const what = s.kind === 'closed' ? 'A closed tour' : 'An open tour';
  $('tour-title').textContent = `${what} from ${sq(s.row, s.col)}` + (pair ? ` to ${sq(s.to_row, s.to_col)}` : '');
  $('no-tour').hidden = true;
  $('tour-error').hidden = true;
  $('tour-view').hidden = true;
  $('ends').hidden = s.kind !== 'open';
  $('ends').textContent = showsEnds(s) ? 'Back to the counts from every square' : 'Where its tours end (heatmap)';
  $('clear-end').hidden = !pair;
  showSquareCount(s);
  const params = { rows: s.rows, cols: s.cols, row: s.row, col: s.col, kind: s.kind, seed: s.seed };
  if (pair) Object.assign(params, { to_row: s.to_row, to_col: s.to_col });
  const { status, body } = await getJSON('/api/tour?' + new URLSearchParams(params));
  if (!isCurrent()) return;
  if (status === 422 && body.no_tour) {
    $('tour-title').textContent = `No ${s.kind} tour from ${sq(s.row, s.col)}` + (pair ? ` to ${sq(s.to_row, s.to_col)}` : '');
    $('no-tour').textContent = body.error;
    $('no-tour').hidden = false;
    if (!showsEnds(s)) $('ends').hidden = !pair;
    return;
  }
  if (status !== 200) {
    const { text } = explain(body, s);
    $('tour-error').textContent = body.kind === 'bad_input' ? body.error : `${text} (${body.error})`;
    $('tour-error').hidden = false;
    return;
  }
  state.tour = body;
  drawTour();
  $('seed-text').textContent = `(seed ${s.seed}; ${body.how})`;
  const name = `knights-tour-${s.rows}x${s.cols}-${s.row}-${s.col}` + (pair ? `-to-${s.to_row}-${s.to_col}` : `-${s.kind}`) + `-${s.seed}`;
  const svgLink = $('svg-link');
  svgLink.href = '/api/tour?' + new URLSearchParams({ ...params, format: 'svg' });
  svgLink.download = `${name}.svg`;
  const jsonLink = $('json-link');
  jsonLink.href = '/api/tour?' + new URLSearchParams(params);
  jsonLink.download = `${name}.json`;
  $('tour-view').hidden = false;
  if (reducedMotion) {
    setStep(state.tour.squares.length - 1);
  } else {
    setStep(0);
    play();
  }
}

// The count of the tours asked for, with the exact digits: from the board's table when it has
// the square, else asked of the server.
async function showSquareCount(s) {
  const token = ++state.countToken;
  const isCurrent = () => token === state.countToken;
  const line = $('square-count');
  const pair = hasEnd(s);
  const from = sq(s.row, s.col), to = pair ? sq(s.to_row, s.to_col) : null;
  const say = (count, how) => {
    const tour = s.kind === 'closed' ? 'closed tour' : 'open tour';
    let words;
    if (count === '0') {
      words = pair ? `No ${tour} from ${from} ends on ${to}.` : `No ${tour} starts on ${from}.`;
    } else {
      const tours = `${group(count)} ${count === '1' ? tour : tour + 's'}`;
      words = (pair ? `${tours} from ${from} end on ${to}` : `${tours} start on ${from}`) +
        (s.kind === 'closed' ? ' (every closed tour passes through every square; each direction counted).'
          : ' (each direction counted).');
    }
    line.textContent = words + (how ? ` ${sentence(how)}` : '');
  };
  let known = null;
  if (state.boardData && state.boardData.kind === 'closed' && s.kind === 'closed') known = state.boardData.per_square;
  else if (state.boardData && state.boardData.kind === 'open' && !pair) known = countAt(state.boardData, Number(s.row), Number(s.col));
  else if (state.boardData && state.boardData.kind === 'ends' && pair) known = countAt(state.boardData, Number(s.to_row), Number(s.to_col));
  if (known !== null && state.boardKey.startsWith(`${s.rows}x${s.cols}:${s.kind}`)) {
    say(known, null);
    return;
  }
  line.textContent = 'Counting the tours…';
  const params = { rows: s.rows, cols: s.cols, row: s.row, col: s.col, kind: s.kind };
  if (pair) Object.assign(params, { to_row: s.to_row, to_col: s.to_col });
  const reply = await countOf(params, isCurrent, (job) => {
    const part = job.work_planned > 0 ? `, about ${Math.floor((100 * job.work_done) / job.work_planned)} % done` : '';
    line.textContent = `Counting the tours… (still computing${part})`;
  });
  if (!reply || !isCurrent()) return;
  if (reply.status === 200) say(reply.body.count, reply.body.how);
  else line.textContent = explain(reply.body, s).text;
}

function drawTour() {
  const { rows, cols, squares, closed, colours } = state.tour;
  const holder = $('tour-board');
  holder.replaceChildren();
  const svg = svgElement('svg', {
    viewBox: `0 0 ${cols * CELL} ${rows * CELL}`,
    role: 'img',
    'data-squares': squares.length,
    'aria-label': `${closed ? 'a closed' : 'an open'} tour of ${squares.length} squares from ${sq(...state.tour.start)} to ${sq(...state.tour.end)}`,
  }, holder);
  if (rows * cols <= MAX_DRAWN_SQUARES) {
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        svgElement('rect', {
          x: c * CELL, y: r * CELL, width: CELL, height: CELL, fill: (r + c) % 2 === 0 ? colours.light : colours.dark,
        }, svg);
      }
    }
  } else {
    svgElement('rect', { width: cols * CELL, height: rows * CELL, fill: colours.light }, svg);
  }
  const centre = ([r, c]) => [c * CELL + CELL / 2, r * CELL + CELL / 2];
  // The path first, under everything else; the step numbers on top, each with a halo.
  const path = svgElement('polyline', {
    fill: 'none', stroke: colours.path, 'stroke-width': 5, 'stroke-linejoin': 'round',
    'stroke-linecap': 'round', 'stroke-opacity': 0.75,
  }, svg);
  const [sx, sy] = centre(squares[0]);
  svgElement('circle', { cx: sx, cy: sy, r: CELL / 3, fill: colours.start, 'fill-opacity': 0.85 }, svg);
  const [ex, ey] = centre(squares[squares.length - 1]);
  const end = svgElement('rect', {
    x: ex - CELL / 3, y: ey - CELL / 3, width: 2 * CELL / 3, height: 2 * CELL / 3, fill: colours.end, 'fill-opacity': 0.85,
  }, svg);
  const numbers = [];
  if (Math.max(rows, cols) <= state.tour.numbers_up_to) {
    squares.forEach((square, i) => {
      const [x, y] = centre(square);
      const text = svgElement('text', {
        x, y: y + 6, 'font-size': 16, 'text-anchor': 'middle', fill: colours.numbers, 'font-weight': 700,
        stroke: colours.halo, 'stroke-width': 4, 'paint-order': 'stroke', 'stroke-linejoin': 'round',
        visibility: 'hidden',
      }, svg);
      text.textContent = String(i + 1);
      numbers.push(text);
    });
  }
  const knight = svgElement('g', { class: 'knight' }, svg);
  svgElement('circle', { r: CELL * 0.3, fill: colours.knight, stroke: colours.halo, 'stroke-width': 3 }, knight);
  svgElement('text', {
    'font-size': 22, 'text-anchor': 'middle', 'dominant-baseline': 'central', fill: colours.halo,
  }, knight).textContent = '\u265E';
  state.tourParts = { path, end, numbers, knight, points: squares.map(centre) };
}

function setStep(next) {
  if (!state.tour) return;
  const last = state.tour.squares.length - 1;
  state.step = Math.max(0, Math.min(last, next));
  const { path, end, numbers, knight, points } = state.tourParts;
  const drawn = points.slice(0, state.step + 1);
  if (state.tour.closed && state.step === last && last > 0) drawn.push(points[0]);
  path.setAttribute('points', drawn.map(([x, y]) => `${x},${y}`).join(' '));
  numbers.forEach((text, i) => text.setAttribute('visibility', i <= state.step ? 'visible' : 'hidden'));
  end.setAttribute('visibility', state.step === last ? 'visible' : 'hidden');
  const [x, y] = points[state.step];
  knight.setAttribute('transform', `translate(${x},${y})`);
  // At the last step the knight would sit on the last number: it leaves, and the number shows.
  knight.setAttribute('visibility', state.step === last && last > 0 ? 'hidden' : 'visible');
  const [r, c] = state.tour.squares[state.step];
  $('step-text').textContent = `Step ${state.step + 1} of ${state.tour.squares.length}: ${sq(r, c)}` +
    (state.step === last ? (state.tour.closed ? ', a knight\u2019s move from the start' : ', the end') : '');
  $('back').disabled = $('first').disabled = state.step === 0;
  $('forward').disabled = $('last').disabled = state.step === last;
  // At the end the animation stops, and the button says what it does now.
  if (state.step === last && state.timer !== null) stopAnimation();
  else showPlaying(state.timer !== null);
}

function speed() {
  return Number($('speed').value);
}

function play() {
  if (!state.tour) return;
  if (state.step === state.tour.squares.length - 1) setStep(0);
  stopAnimation();
  state.timer = setInterval(() => setStep(state.step + 1), 1000 / speed());
  showPlaying(true);
}

function stopAnimation() {
  if (state.timer !== null) clearInterval(state.timer);
  state.timer = null;
  showPlaying(false);
}

function showPlaying(playing) {
  const atEnd = state.tour && state.step === state.tour.squares.length - 1;
  $('play').textContent = playing ? 'Pause' : atEnd ? 'Replay' : 'Play';
}

function togglePlay() {
  if (state.timer !== null) stopAnimation();
  else play();
}
