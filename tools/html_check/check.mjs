// tools/html_check/check.mjs - drive headless Chromium through chromedriver
// (W3C WebDriver over HTTP, node's own fetch: no npm packages) to check the
// HTML reports that report/ writes.
//
//   node check.mjs DIR
//
// DIR holds sample.html (a report with flagged plies), broken.html,
// clean.html and index.html (tests/test_report_html with
// XQ_REPORT_SAMPLE_DIR=DIR writes them). For every page, at a phone width
// (390 px) and a desktop width (1000 px): load it, fail on any console
// message of level SEVERE (script errors, failed loads), save a full-page
// screenshot DIR/shots/<page>-<width>.png. On sample.html, act as an
// arbiter in review mode: pick the second candidate of ply 3, type a move
// for ply 4, pick the second candidate of ply 5, leave ply 7 alone, press
// "Save corrections", and write what the page produced to
// DIR/sample.corrections.json (the same text is offered as a download).
// On index.html, click a header and check the rows get sorted.
// Exit status 0 when every check passed; messages on stderr.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import net from 'node:net';

const dir = path.resolve(process.argv[2] || '.');
const shots = path.join(dir, 'shots');
const dl = path.join(dir, 'downloads');
fs.mkdirSync(shots, { recursive: true });
fs.mkdirSync(dl, { recursive: true });
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const DRIVER = process.env.CHROMEDRIVER || '/usr/bin/chromedriver';
let failures = 0;
const fail = (msg) => { failures++; console.error('FAIL: ' + msg); };
const info = (msg) => console.error(msg);

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
    s.on('error', reject);
  });
}

const port = await freePort();
const driver = spawn(DRIVER, [`--port=${port}`], { stdio: ['ignore', 'ignore', 'pipe'] });
let driverErr = '';
driver.stderr.on('data', (d) => { driverErr += d; });
const base = `http://127.0.0.1:${port}`;

async function wd(method, url, body) {
  const r = await fetch(base + url, {
    method, headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const j = await r.json();
  if (!r.ok) throw new Error(`${method} ${url}: ${JSON.stringify(j.value)}`);
  return j.value;
}

async function waitReady() {
  for (let i = 0; i < 100; i++) {
    try { const v = await wd('GET', '/status'); if (v.ready) return; } catch (e) { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('chromedriver did not start: ' + driverErr);
}

let sid = null;
async function main() {
  await waitReady();
  const sess = await wd('POST', '/session', {
    capabilities: { alwaysMatch: {
      browserName: 'chrome',
      'goog:loggingPrefs': { browser: 'ALL' },
      'goog:chromeOptions': {
        binary: CHROMIUM,
        args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
               '--hide-scrollbars', '--window-size=1000,900'],
        prefs: { 'download.default_directory': dl, 'download.prompt_for_download': false },
      },
    } },
  });
  sid = sess.sessionId;
  const S = `/session/${sid}`;
  const exec = (script, args = []) => wd('POST', `${S}/execute/sync`, { script, args });
  const find = async (css) => {
    const v = await wd('POST', `${S}/element`, { using: 'css selector', value: css });
    return Object.values(v)[0];
  };
  const logs = async () => wd('POST', `${S}/se/log`, { type: 'browser' });
  // allow downloads in headless mode (CDP through chromedriver)
  try {
    await wd('POST', `${S}/goog/cdp/execute`, { cmd: 'Browser.setDownloadBehavior',
      params: { behavior: 'allow', downloadPath: dl } });
  } catch (e) { info('note: downloads not enabled: ' + e.message); }

  async function load(name) {
    await wd('POST', `${S}/url`, { url: 'file://' + path.join(dir, name) });
    const title = await wd('GET', `${S}/title`);
    if (!title.startsWith('xqscan')) fail(`${name}: title "${title}"`);
  }
  async function checkConsole(name) {
    for (const e of await logs()) {
      if (e.level === 'SEVERE') fail(`${name}: console ${e.level}: ${e.message}`);
      else info(`${name}: console ${e.level}: ${e.message}`);
    }
  }
  // Chromium windows cannot be narrower than ~500 px, so the phone width is
  // emulated (device metrics, mobile viewport) rather than set on the window.
  const cdp = (cmd, params) => wd('POST', `${S}/goog/cdp/execute`, { cmd, params });
  async function viewport(width, height) {
    await cdp('Emulation.setDeviceMetricsOverride',
      { width, height, deviceScaleFactor: 1, mobile: width < 600 });
  }
  async function screenshot(name, width) {
    await viewport(width, 900);
    const h = await exec('return Math.min(document.documentElement.scrollHeight, 16000);');
    await viewport(width, h);
    const iw = await exec('return window.innerWidth;');
    if (iw !== width) fail(`${name}: viewport is ${iw} px wide, not ${width}`);
    const sw = await exec('return document.documentElement.scrollWidth;');
    const cw = await exec('return document.documentElement.clientWidth;');
    if (sw > cw + 1) fail(`${name} at ${width}px: page scrolls sideways (${sw} > ${cw})`);
    const png = await wd('GET', `${S}/screenshot`);
    const file = path.join(shots, `${name.replace(/\.html$/, '')}-${width}.png`);
    fs.writeFileSync(file, Buffer.from(png, 'base64'));
    info(`screenshot ${file} (${width}x${h})`);
  }

  for (const name of ['sample.html', 'broken.html', 'clean.html', 'index.html']) {
    if (!fs.existsSync(path.join(dir, name))) { fail(`${name} missing`); continue; }
    await load(name);
    // the verdict box comes first on a report page
    if (name !== 'index.html') {
      const first = await exec("var s=document.querySelector('section');return s?s.id:'';");
      if (first !== 'verdict') fail(`${name}: first section is "${first}", not the verdict`);
    }
    for (const w of [390, 1000]) await screenshot(name, w);
    await checkConsole(name);
  }

  // review mode on sample.html
  await load('sample.html');
  await viewport(390, 844);
  const click = async (css) => wd('POST', `${S}/element/${await find(css)}/click`, {});
  await click('fieldset[data-ply="3"] input[value="b0c2"]');
  const typed = await find('fieldset[data-ply="4"] input.typed');
  await wd('POST', `${S}/element/${typed}/click`, {});
  await wd('POST', `${S}/element/${typed}/value`, { text: '车９平８' });
  await click('fieldset[data-ply="5"] input[value="b2c2"]');
  const progress = await wd('GET', `${S}/element/${await find('#rv-progress')}/text`);
  if (progress !== '3 / 4') fail(`review progress shows "${progress}", want "3 / 4"`);
  // the filter hides plain plies and keeps the others
  await click('#only-flagged');
  const vis = await exec("return Array.prototype.filter.call(document.querySelectorAll('table.moves tbody tr'),function(r){return r.offsetParent!==null;}).map(function(r){return r.id;}).join(' ');");
  if (vis !== 'ply-2 ply-3 ply-4 ply-5 ply-7') fail(`filtered move table shows "${vis}"`);
  await click('#only-flagged');
  await click('#save');
  const text = await exec("return document.getElementById('corrections-json').textContent;");
  fs.writeFileSync(path.join(dir, 'sample.corrections.json'), text);
  info('corrections saved by the page:\n' + text);
  try {
    const j = JSON.parse(text);
    if (j.schema !== 'xqscan-corrections/1') fail('corrections schema ' + j.schema);
  } catch (e) { fail('corrections are not JSON: ' + e.message); }
  // the download, when the browser allowed it, holds the same text
  for (let i = 0; i < 30; i++) {
    const f = path.join(dl, 'sample.corrections.json');
    if (fs.existsSync(f)) {
      if (fs.readFileSync(f, 'utf8') !== text) fail('downloaded file differs from the page text');
      else info('download: ' + f);
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await screenshot('sample-reviewed.html', 390);
  await checkConsole('sample.html (review)');

  // typed.html (a record from the verifier), when present: pick the second
  // candidate of the first flagged ply, type the Chinese text of the second
  // candidate of the next one; save. DIR/typed.expect gets "ply:iccs;..."
  // for tests/test_report_typed to apply through the verifier.
  if (fs.existsSync(path.join(dir, 'typed.html'))) {
    await load('typed.html');
    await viewport(390, 844);
    const picks = await exec(`
      var fs = document.querySelectorAll('fieldset.rv'), out = [];
      for (var i = 0; i < fs.length && out.length < 2; i++) {
        var r = fs[i].querySelectorAll('input[type=radio]:not(.other)');
        if (r.length < 2) continue;
        out.push({ ply: fs[i].getAttribute('data-ply'), iccs: r[1].value,
                   text: r[1].parentNode.textContent.trim().split(/\\s+/)[0] });
      }
      return out;`);
    if (picks.length < 2) fail('typed.html: fewer than two flagged plies with two candidates');
    else {
      await click(`fieldset[data-ply="${picks[0].ply}"] input[value="${picks[0].iccs}"]`);
      const box = await find(`fieldset[data-ply="${picks[1].ply}"] input.typed`);
      await wd('POST', `${S}/element/${box}/click`, {});
      await wd('POST', `${S}/element/${box}/value`, { text: picks[1].text });
      await click('#save');
      const t2 = await exec("return document.getElementById('corrections-json').textContent;");
      fs.writeFileSync(path.join(dir, 'typed.corrections.json'), t2);
      fs.writeFileSync(path.join(dir, 'typed.expect'),
        picks.map((p) => `${p.ply}:${p.iccs}`).join(';'));
      info(`typed.html: picked ${picks[0].iccs} at ply ${picks[0].ply}, typed ` +
           `${picks[1].text} at ply ${picks[1].ply}`);
      await screenshot('typed-reviewed.html', 390);
      await checkConsole('typed.html (review)');
    }
  }

  // index: a click on "Plies" sorts ascending by plies (desktop width: on
  // a phone the table becomes cards without headers, worst first)
  await viewport(1000, 900);
  await load('index.html');
  const ths = await wd('POST', `${S}/elements`, { using: 'css selector', value: '#sheets th' });
  await wd('POST', `${S}/element/${Object.values(ths[7])[0]}/click`, {});
  const plies = await exec("return Array.prototype.map.call(document.querySelectorAll('#sheets tbody tr'),function(r){return +r.cells[7].textContent;});");
  const sorted = [...plies].sort((a, b) => a - b);
  if (JSON.stringify(plies) !== JSON.stringify(sorted)) fail(`index not sorted by plies: ${plies}`);
  await checkConsole('index.html (sort)');
}

try {
  await main();
} catch (e) {
  fail(e.stack || String(e));
} finally {
  if (sid) { try { await wd('DELETE', `/session/${sid}`); } catch (e) { /* gone */ } }
  driver.kill();
}
info(failures ? `${failures} check(s) failed` : 'html_check: all checks passed');
process.exit(failures ? 1 : 0);
