// ffish_wxf.js JSONL [MAXGAMES] - print Fairy-Stockfish's WXF for the moves
// of each game of a ccpd-dev.iccs.jsonl style file, one game per line
// (moves separated by spaces). Used by tests/cli/convert.sh to compare
// xqscan's WXF writer with ffish's (Board.sanMove(uci, XIANGQI_WXF)).
// ffish counts ranks 1-10 (h3e3); ICCS counts 0-9 (h2e2).
'use strict';
globalThis.fetch = undefined;   // make emscripten read the wasm from disk
const fs = require('fs');
const path = require('path');
const ffishPath = process.env.FFISH_JS ||
    path.join(__dirname, '../../../tools/node/node_modules/ffish/ffish.js');
const ffish = require(ffishPath);
const lines = fs.readFileSync(process.argv[2], 'utf8').split('\n').filter(l => l.trim());
const max = process.argv[3] ? parseInt(process.argv[3], 10) : lines.length;
ffish['onRuntimeInitialized'] = () => {
    const out = [];
    for (let i = 0; i < Math.min(max, lines.length); i++) {
        const g = JSON.parse(lines[i]);
        const board = new ffish.Board('xiangqi', g.start_fen);
        const wxf = [];
        for (const m of g.iccs.split(' ').filter(x => x)) {
            const uci = m[0] + (parseInt(m[1], 10) + 1) + m[2] + (parseInt(m[3], 10) + 1);
            wxf.push(board.sanMove(uci, ffish.Notation.XIANGQI_WXF));
            board.push(uci);
        }
        board.delete();
        out.push(wxf.join(' '));
    }
    process.stdout.write(out.join('\n') + '\n');
};
