#!/usr/bin/env node
// Reads Xiangqi FENs on stdin, one per line, and prints for each line the
// legal moves Fairy-Stockfish (npm ffish) finds, converted to ICCS (ranks
// 0-9; ffish counts 1-10), sorted, space-separated; "invalid" if ffish
// rejects the FEN; an empty line if there is no legal move.
// Usage: node tools/ffish/legal_moves.js < fens.txt
// ffish is looked up in tools/node/node_modules (or $FFISH_DIR).
'use strict';
const path = require('path');
const fs = require('fs');
const readline = require('readline');

function loadFfish() {
  // ffish 0.7.x (old emscripten) would fetch() its .wasm when fetch exists,
  // which fails on a file path in Node >= 18: make it read the file.
  globalThis.fetch = undefined;
  const dirs = [process.env.FFISH_DIR,
                path.join(__dirname, '..', 'node', 'node_modules', 'ffish'),
                'ffish'].filter(Boolean);
  for (const d of dirs) {
    try { return require(d); } catch (e) { /* next */ }
  }
  process.stderr.write('legal_moves.js: ffish not found\n');
  process.exit(3);
}

function toIccs(m) {
  const r = /^([a-i])(\d+)([a-i])(\d+)$/.exec(m);
  if (!r) return '?' + m;
  return r[1] + (parseInt(r[2], 10) - 1) + r[3] + (parseInt(r[4], 10) - 1);
}

function withFfish(cb) {
  const m = loadFfish();
  if (typeof m === 'function') { m().then(cb); return; }   // newer ffish
  if (m.calledRun) { cb(m); return; }
  m.onRuntimeInitialized = () => cb(m);                      // ffish 0.7.x
}

withFfish((ffish) => {
  const board = new ffish.Board('xiangqi');
  const out = [];
  const rl = readline.createInterface({ input: process.stdin });
  rl.on('line', (line) => {
    const fen = line.trim();
    if (!fen) { out.push(''); return; }
    if (ffish.validateFen(fen, 'xiangqi') !== 1) { out.push('invalid'); return; }
    board.setFen(fen);
    const lm = board.legalMoves();
    out.push(lm ? lm.split(' ').map(toIccs).sort().join(' ') : '');
    if (out.length >= 4096) { process.stdout.write(out.join('\n') + '\n'); out.length = 0; }
  });
  rl.on('close', () => {
    if (out.length) process.stdout.write(out.join('\n') + '\n');
    board.delete();
  });
});
