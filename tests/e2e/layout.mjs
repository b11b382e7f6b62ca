// End-to-end tests: layout. Tables sized to their content on the very frame a fit ends (read
// through the published layout), the share link holding only applied settings with its toast,
// touch scrolling at phone size, and screenshots at three screen sizes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ARTIFACTS, FIXTURES, check, clickButton, clickControl, dropFiles, loadSample, mirrorResult,
  openPage, settle, test, typeInto, waitForReadEnd, waitForState, watchStates,
} from './harness.mjs';

// Records every layout the app publishes, with whether the page had the fit's results by then.
async function recordLayouts(page) {
  await page.evaluate(() => {
    const ui = window.materialist.ui;
    let current = ui.buttons;
    window.__layouts = [];
    Object.defineProperty(ui, 'buttons', {
      get: () => current,
      set: (value) => {
        current = value;
        const result = JSON.parse(document.getElementById('materialist-status').dataset.result || '{}');
        window.__layouts.push({ fitDone: Boolean(result.fits), buttons: value });
      },
    });
  });
}

// Text widths in the app's font at its size: DejaVu Sans, 15 px from ascender to descender as
// ImGui (stb_truetype) sizes fonts, at zoom 1.
async function textWidths(page, texts) {
  return page.evaluate(async (list) => {
    const face = new FontFace('MeasureDejaVu', 'url(fonts/DejaVuSans.ttf)');
    await face.load();
    document.fonts.add(face);
    const context = document.createElement('canvas').getContext('2d');
    context.font = '100px MeasureDejaVu';
    const m = context.measureText('x');
    context.font = `${(15 * 100) / (m.fontBoundingBoxAscent + m.fontBoundingBoxDescent)}px MeasureDejaVu`;
    return list.map((text) => context.measureText(text).width);
  }, texts);
}

const columns = (buttons, table) => Object.keys(buttons).filter((k) => k.startsWith(`${table}:col`))
  .sort().map((k) => buttons[k]);

test('layout: the relations and values tables have their full widths on the frame the fit ends', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { hash: '#sample' });
  await recordLayouts(page);
  check(await waitForState(page, ['done', 'error']) === 'done', 'the sample did not fit');
  await settle(page);
  const layouts = await page.evaluate(() => window.__layouts);
  const first = layouts.find((l) => l.fitDone && l.buttons['relations:col0']);
  check(first, `no layout with the relations table after the fit (${layouts.length} layouts)`);
  const [relation, margin, verdict, header] = await textWidths(page,
    ['B + N = R + 1.5P', 'margin +00 ± 00', 'consistent', 'Capablanca']);
  const relations = columns(first.buttons, 'relations');
  check(relations.length === 3, `relations columns: ${JSON.stringify(relations)}`);
  check(relations[0].width >= relation - 2, `relation column ${relations[0].width} px < "B + N = R + 1.5P" ${relation} px`);
  check(relations[1].width >= margin - 2, `margin column ${relations[1].width} px < ${margin} px`);
  check(relations[2].width >= verdict - 2, `verdict column ${relations[2].width} px < ${verdict} px`);
  // The values keep the reference columns once fitted: coefficient, value, article, 1-3-3-5-9, Capablanca.
  const values = columns(first.buttons, 'values');
  check(values.length === 5, `values columns once fitted: ${values.length}`);
  check(values[4].width >= header - 2, `Capablanca column ${values[4].width} px < ${header} px`);
  // And so on every later frame: never collapsed.
  for (const layout of layouts.slice(layouts.indexOf(first))) {
    for (const c of columns(layout.buttons, 'relations')) check(c.width >= 40, `a relations column of ${c.width} px`);
  }
  await page.screenshot({ path: join(ARTIFACTS, '30-fit-frame-1400.png') });
  // A+ makes the text larger (the zoom control where pinching is not at hand), A− smaller again.
  const width = async () => page.evaluate(() => window.materialist.ui.buttons['Load sample'].width);
  const before = await width();
  await clickButton(page, 'zoom:in');
  await settle(page, 6);
  const larger = await width();
  check(larger > before * 1.08, `A+: Load sample ${before} px, then ${larger} px`);
  await clickButton(page, 'zoom:out');
  await settle(page, 6);
  check(Math.abs(await width() - before) < 1, 'A− did not bring the text size back');
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('layout: the Fit panel shows the solver the ordinal model ran, with the reason in full', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { hash: '#sample' });
  check(await waitForState(page, ['done', 'error']) === 'done', 'the sample did not fit');
  check(!(await page.evaluate(() => window.materialist.ui.buttons['fit:overridden'])), 'an override shown for the article\'s fit');
  await clickControl(page, 'model:ordinal');
  await page.waitForFunction(() => JSON.parse(document.getElementById('materialist-status').dataset.result).solver === 'newton',
    null, { timeout: 60000 });
  check(await waitForState(page, ['done', 'error'], 60000) === 'done', 'the ordinal fit did not finish');
  await settle(page);
  const [note, panel, newton] = await page.evaluate(() => ['fit:overridden', 'panel:scroll', 'Newton']
    .map((l) => window.materialist.ui.buttons[l]));
  check(note && note.height > 10, 'the overridden solver is not explained');
  check(note.x + note.width <= panel.x + panel.width + 1, `the reason runs past the panel: ${JSON.stringify(note)}`);
  check(newton, 'no Newton radio');
  await page.screenshot({ path: join(ARTIFACTS, '36-ordinal-override.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('layout: the share link leaves out an unapplied filter, is short, and a toast says so', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { hash: '#sample' });
  check(await waitForState(page, ['done', 'error']) === 'done', 'the sample did not fit');
  await clickControl(page, 'units:elo');  // applies at once: in the link
  await typeInto(page, 'filter:player', 'Carlsen');  // not applied: not in the link
  await clickControl(page, 'Copy share link');
  const result = await page.waitForFunction(() => {
    const r = JSON.parse(document.getElementById('materialist-status').dataset.result);
    return r.shareLink && r.toast && r;
  }, null, { timeout: 10000 }).then((h) => h.jsonValue());
  const hash = new URL(result.shareLink).hash;
  check(!/carlsen/i.test(hash), `the link holds the unapplied filter: ${hash}`);
  check(hash.includes('units=elo') && hash.includes('sample'), `the link lacks the applied units: ${hash}`);
  check(hash.length < 120 && !hash.includes('%7B'), `the link is not compact: ${hash}`);
  await settle(page, 2);
  const toast = await page.evaluate(() => window.materialist.ui.buttons.toast);
  check(toast && toast.width > 100, `no toast drawn: ${JSON.stringify(toast)}`);
  check(/Link/.test(result.toast), `toast text: ${result.toast}`);
  await page.screenshot({ path: join(ARTIFACTS, '31-share-toast.png') });
  // The link restores what it holds.
  const { context: second, page: reopened } = await openPage(baseUrl, { hash });
  check(await waitForState(reopened, ['done', 'error']) === 'done', 'the shared link did not fit');
  await clickControl(reopened, 'Copy share link');
  const again = await reopened.waitForFunction(() => JSON.parse(document.getElementById('materialist-status').dataset.result).shareLink)
    .then((h) => h.jsonValue());
  check(new URL(again).hash === hash, `the reopened link shares ${new URL(again).hash}, not ${hash}`);
  await second.close();
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('layout: a phone scrolls with real touch events, values first, 44 px targets', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl, { hash: '#sample', width: 390, height: 844, touch: true });
  check(await waitForState(page, ['done', 'error']) === 'done', 'the sample did not fit');
  await settle(page);
  const before = await page.evaluate(() => window.materialist.ui.buttons);
  check(before['values:col0'] && before['values:col0'].y < 400, `the values are not first: ${JSON.stringify(before['values:col0'])}`);
  // Every column of the values table in view (no horizontal scroll): Capablanca's is the last.
  const last = before['values:col4'];
  check(last && last.x + last.width <= 390, `the values table runs past the screen: ${JSON.stringify(last)}`);
  for (const label of ['Load sample', 'Open files…', 'About']) {
    check(before[label].height >= 44, `${label} is ${before[label].height} px tall`);
  }
  const cdp = await page.context().newCDPSession(page);
  const touch = (type, y) => cdp.send('Input.dispatchTouchEvent', {
    type, touchPoints: type === 'touchEnd' ? [] : [{ x: 195, y }],
  });
  await touch('touchStart', 700);
  for (let y = 680; y >= 260; y -= 20) await touch('touchMove', y);
  await touch('touchEnd', 260);
  await settle(page, 6);
  const after = await page.evaluate(() => window.materialist.ui.buttons);
  check(after.Settings.y < before.Settings.y - 150, `a swipe up did not scroll: Settings at ${before.Settings.y} then ${after.Settings.y}`);
  await page.screenshot({ path: join(ARTIFACTS, '32-phone-scrolled.png') });
  // A tap is a click: About opens with the article's link, and closes.
  const tap = async (label) => {
    const rect = await page.evaluate((l) => window.materialist.ui.buttons[l], label);
    const point = { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await settle(page, 6);
  };
  await page.mouse.move(195, 500);  // back to the top, where About is
  await page.mouse.wheel(0, -20000);
  await settle(page, 6);
  await tap('About');
  const link = await page.evaluate(() => window.materialist.ui.buttons['about:link']);
  check(link && link.width > 0, 'a tap on About did not open it');
  await page.screenshot({ path: join(ARTIFACTS, '35-phone-about.png') });
  await tap('about:close');
  check(!(await page.evaluate(() => window.materialist.ui.buttons['about:link'])), 'a tap on Close did not close About');
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

export function threeFiles() {
  const pgn = readFileSync(join(FIXTURES, 'OpenRating.pgn'), 'utf8');
  const cut1 = pgn.indexOf('\n[Event ', Math.floor(pgn.length / 3)) + 1;
  const cut2 = pgn.indexOf('\n[Event ', Math.floor((2 * pgn.length) / 3)) + 1;
  return [{ name: 'anand.pgn', text: pgn.slice(0, cut1) }, { name: 'carlsen.pgn', text: pgn.slice(cut1, cut2) },
    { name: 'tal.pgn', text: pgn.slice(cut2) }];
}

for (const [width, height] of [[1400, 900], [1920, 1080], [390, 844]]) {
  test(`layout: screenshots at ${width}×${height}, the sample and a three-file comparison`, async ({ baseUrl }) => {
    const { context, page, problems } = await openPage(baseUrl, { hash: '#sample', width, height, touch: width < 500 });
    check(await waitForState(page, ['done', 'error']) === 'done', 'the sample did not fit');
    await settle(page);
    await page.screenshot({ path: join(ARTIFACTS, `40-sample-${width}x${height}.png`) });
    await clickControl(page, 'datasets:per-file');
    // The sample read again per file first: a drop while that read runs would supersede it
    // before it committed, and its per-file setting with it (a loaded machine's race).
    await watchStates(page);
    await clickControl(page, 'Apply filters');
    check(await waitForReadEnd(page, 60000) === 'done', 'the sample was not read again per file');
    await dropFiles(page, threeFiles());
    await page.waitForFunction(() => (JSON.parse(document.getElementById('materialist-status').dataset.result).fits || []).length === 3,
      null, { timeout: 120000 });
    check(await waitForState(page, ['done', 'error'], 120000) === 'done', 'the comparison did not fit');
    if (width >= 500) {
      await clickControl(page, 'Settings');  // fold the settings away
    } else {
      await page.mouse.move(195, 500);  // back to the top of the phone's column
      await page.mouse.wheel(0, -20000);
    }
    await settle(page, 8);
    const buttons = await page.evaluate(() => window.materialist.ui.buttons);
    const [relation] = await textWidths(page, ['B + N = R + 1.5P']);
    const first = buttons['comparison:col0'];
    check(first && first.width >= relation - 2, `comparison's first column ${first && first.width} px`);
    await page.screenshot({ path: join(ARTIFACTS, `41-comparison-${width}x${height}.png`) });
    check((await mirrorResult(page)).fits.length === 3, 'not three fits');
    check(problems.length === 0, problems.join('\n'));
    await context.close();
  });
}

test('messages: variant files name their variants; partial and skipped games listed apart', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl);
  const game = (variant, result) => `[Event "v"]\n[Variant "${variant}"]\n[Result "${result}"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 ${result}\n\n`;
  const text = [game('Crazyhouse', '1-0'), game('Atomic', '0-1'), game('Crazyhouse', '1/2-1/2')].join('');
  await dropFiles(page, [{ name: 'variants.pgn', text }]);
  check(await waitForState(page, ['done', 'error']) === 'error', 'a file of variants did not end in an error');
  const status = await page.$eval('#materialist-status', (e) => e.textContent);
  check(/Crazyhouse, Atomic/.test(status) && !/filters removed/.test(status), `status: ${status}`);
  const error = (await mirrorResult(page)).error;
  check(/Crazyhouse, Atomic/.test(error), `error: ${error}`);
  await settle(page);
  await page.screenshot({ path: join(ARTIFACTS, '33-variants.png') });
  // A partial game (an illegal move after a few plies) and a skipped one (illegal at once).
  let pgn = '';
  for (let i = 0; i < 40; ++i) pgn += '[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 1-0\n\n[Result "0-1"]\n\n1. d4 d5 2. c4 e6 0-1\n\n';
  pgn += '[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 3. Qxh7 Nf6 1-0\n\n';
  pgn += '[Result "0-1"]\n\n1. Ke5 e5 0-1\n\n';
  await watchStates(page);  // the variants' 'error' must not count as this read's end
  await dropFiles(page, [{ name: 'issues.pgn', text: pgn }]);
  check(await waitForReadEnd(page, 60000) === 'done', 'the file with bad games did not fit');
  const result = await mirrorResult(page);
  check(result.partial === 1 && result.skipped === 1, `partial ${result.partial}, skipped ${result.skipped}`);
  await clickControl(page, 'Settings');  // folded: the results column has the height
  await page.mouse.move(200, 300);  // the results column, down to the data report's lists
  await page.mouse.wheel(0, 4000);
  await settle(page, 8);
  await page.screenshot({ path: join(ARTIFACTS, '34-partial-and-skipped.png') });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});

test('layout: PNG saves nothing before there are results, and a picture after', async ({ baseUrl }) => {
  const { context, page, problems } = await openPage(baseUrl);
  await clickButton(page, 'PNG');
  await page.waitForTimeout(1000);
  check((await page.evaluate(() => window.materialist.downloads.length)) === 0, 'PNG saved a picture of the empty app');
  check(await loadSample(page) === 'done', 'the sample did not fit');
  await clickButton(page, 'PNG');
  await page.waitForFunction(() => window.materialist.downloads.some((d) => d.name === 'materialist.png'), null, { timeout: 10000 });
  check(problems.length === 0, problems.join('\n'));
  await context.close();
});
