// End-to-end tests: chart legends never sit over the data. Each chart's legend has its own rows
// between the title and the plot (published as "<chart>:legend" beside "<chart>:plot"): with one
// dataset (the sample) and three (three dropped files compared), at two laptops', a phone's and a
// large screen's sizes; on a wide screen the lowest charts keep their axes on the screen.
// Screenshots of each.
import { join } from 'node:path';
import {
  ARTIFACTS, check, dropFiles, mirrorResult, openPage, settle, test, waitForReadEnd, waitForState, watchStates,
} from './harness.mjs';
import { threeFiles } from './layout.mjs';

const overlaps = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

// Each chart with a legend: the legend apart from the data, within the plot's width, above it.
async function checkLegends(page, charts, where) {
  const buttons = await page.evaluate(() => window.materialist.ui.buttons);
  for (const chart of charts) {
    const plot = buttons[`${chart}:plot`];
    const legend = buttons[`${chart}:legend`];
    check(plot && plot.height > 40, `${where}: no ${chart} plot (${JSON.stringify(plot)})`);
    check(legend && legend.height > 5, `${where}: no ${chart} legend (${JSON.stringify(legend)})`);
    check(!overlaps(legend, plot), `${where}: the ${chart} legend ${JSON.stringify(legend)} covers its plot ${JSON.stringify(plot)}`);
    check(legend.y + legend.height <= plot.y + 0.5, `${where}: the ${chart} legend is not above its plot`);
    check(legend.x >= plot.x - 1 && legend.x + legend.width <= plot.x + plot.width + 1,
      `${where}: the ${chart} legend ${JSON.stringify(legend)} runs past its plot ${JSON.stringify(plot)}`);
  }
}

// On a phone: scrolls the one column until the chart's plot is on the screen.
async function scrollTo(page, label, height) {
  for (let i = 0; i < 40; ++i) {
    const [rect, panel] = await page.evaluate((l) => [window.materialist.ui.buttons[l],
      window.materialist.ui.buttons['panel:scroll']], label);
    if (rect && rect.y >= 0 && rect.y + rect.height <= height) return;
    await page.mouse.move(panel.x + panel.width / 2, panel.y + panel.height / 2);
    await page.mouse.wheel(0, rect && rect.y < 0 ? -200 : 200);
    await settle(page, 3);
  }
}

for (const [width, height] of [[1400, 900], [1366, 768], [390, 844], [2560, 1440]]) {
  const phone = width < 500;
  test(`legends: never over the data at ${width}×${height}, one dataset and three`, async ({ baseUrl }) => {
    const { context, page, problems } = await openPage(baseUrl, { hash: '#sample', width, height, touch: phone });
    check(await waitForState(page, ['done', 'error']) === 'done', 'the sample did not fit');
    await settle(page, 6);
    await checkLegends(page, ['balance', 'outcomes'], `the sample at ${width}×${height}`);
    if (phone) await scrollTo(page, 'outcomes:plot', height);
    await page.mouse.move(1, 1);  // no tooltip in the picture
    await settle(page, 2);
    await page.screenshot({ path: join(ARTIFACTS, `legends-1-${width}x${height}.png`) });
    await context.close();

    const second = await openPage(baseUrl, { hash: '#datasets=per-file', width, height, touch: phone });
    await watchStates(second.page);
    await dropFiles(second.page, threeFiles());
    check(await waitForReadEnd(second.page, 120000) === 'done', `three files: ${(await mirrorResult(second.page)).error}`);
    check((await mirrorResult(second.page)).fits.length === 3, 'not three fits');
    await settle(second.page, 6);
    await checkLegends(second.page, ['balance', 'outcomes', 'loss'], `three files at ${width}×${height}`);
    if (!phone) {  // the charts' column does not scroll: the lowest plots and their axes fit in it
      const lowest = await second.page.evaluate(() => ['balance:plot', 'outcomes:plot'].map((l) => window.materialist.ui.buttons[l]));
      for (const plot of lowest) {
        // Under the plot: its tick labels and its axis label, 2.25 lines of 15 px.
        check(plot.y + plot.height + 34 <= height, `three files at ${width}×${height}: a plot's axis runs past the screen: ${JSON.stringify(plot)}`);
      }
    }
    if (phone) await scrollTo(second.page, 'balance:plot', height);
    await second.page.mouse.move(1, 1);
    await settle(second.page, 2);
    await second.page.screenshot({ path: join(ARTIFACTS, `legends-3-${width}x${height}.png`) });
    if (phone) {
      await scrollTo(second.page, 'outcomes:plot', height);
      await second.page.mouse.move(1, 1);
      await settle(second.page, 2);
      await second.page.screenshot({ path: join(ARTIFACTS, `legends-3-outcomes-${width}x${height}.png`) });
    }
    check(problems.length === 0 && second.problems.length === 0, [...problems, ...second.problems].join('\n'));
    await second.context.close();
  });
}
