#!/usr/bin/env node
// Perft with Fairy-Stockfish (npm ffish): node tools/ffish/perft.js DEPTH [FEN]
// Counts leaf nodes of the legal move tree (bulk count at the last ply via
// numberLegalMoves, as Fairy-Stockfish's own perft does). Prints
// "nodes N", "seconds S" (wall time of the count only) and "cpu S" (process
// CPU time of the count).
'use strict';
const path = require('path');

function loadFfish() {
  globalThis.fetch = undefined;   // see legal_moves.js
  const dirs = [process.env.FFISH_DIR,
                path.join(__dirname, '..', 'node', 'node_modules', 'ffish'),
                'ffish'].filter(Boolean);
  for (const d of dirs) {
    try { return require(d); } catch (e) { /* next */ }
  }
  process.stderr.write('perft.js: ffish not found\n');
  process.exit(3);
}

function withFfish(cb) {
  const m = loadFfish();
  if (typeof m === 'function') { m().then(cb); return; }
  if (m.calledRun) { cb(m); return; }
  m.onRuntimeInitialized = () => cb(m);
}

function perft(board, depth) {
  if (depth === 0) return 1;
  if (depth === 1) return board.numberLegalMoves();
  const s = board.legalMoves();
  if (!s) return 0;
  let n = 0;
  for (const m of s.split(' ')) {
    board.push(m);
    n += perft(board, depth - 1);
    board.pop();
  }
  return n;
}

const depth = parseInt(process.argv[2] || '', 10);
if (!(depth >= 0)) {
  process.stderr.write('usage: node perft.js DEPTH [FEN]\n');
  process.exit(64);
}
withFfish((ffish) => {
  const fen = process.argv[3];
  // ffish 0.7.x validates against the variant of the last board made, so
  // make the board first.
  const board = new ffish.Board('xiangqi');
  if (fen) {
    if (ffish.validateFen(fen, 'xiangqi') !== 1) {
      process.stderr.write('perft.js: invalid FEN\n');
      process.exit(1);
    }
    board.setFen(fen);
  }
  const t0 = process.hrtime.bigint();
  const u0 = process.cpuUsage();
  const n = perft(board, depth);
  const u1 = process.cpuUsage(u0);
  const t1 = process.hrtime.bigint();
  board.delete();
  console.log('nodes ' + n);
  console.log('seconds ' + (Number(t1 - t0) / 1e9).toFixed(3));
  console.log('cpu ' + ((u1.user + u1.system) / 1e6).toFixed(3));
});
