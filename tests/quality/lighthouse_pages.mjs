// Lighthouse (its Node API, as its CLI runs it) on several pages in turn, with one Chromium and one Node process for
// them all: starting both for each page cost a third of the quality gate's time. Each page gets a fresh tab and
// Lighthouse's own storage and cache reset, as in the CLI. Run by tests/quality/lighthouse.py (lighthouse_reports):
//   node lighthouse_pages.mjs JOBS.json
// JOBS.json: {chromePath, chromeFlags: [...], categories: [...], audits: [...] (audits beside the categories', or null),
// runtimeErrorsAllowed, pages: [{url, output}]}.
// Writes each page's report (JSON) to its output. A run Lighthouse itself aborts with a runtime error (e.g.
// NO_NAVSTART: its trace recording failed), or whose audits report that error, is a failure of the tool's run, not
// a score of the page: it is run again, at most runtimeErrorsAllowed times; exit status 2 with the error when that
// is not enough.
import fs from 'node:fs';

import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

// The same failure of Lighthouse's own trace recording, reported by an audit that needs the trace rather than by the
// run (seen with Lighthouse 12.8.2 on the first page of a run, once in its first three runs here): the tool's,
// not the page's, and run again like a runtime error.
const TRACE_RECORDING_ERRORS = ['NO_NAVSTART', 'NO_FCP', 'NO_TRACING_STARTED'];

function traceRecordingError(lhr) {
  for (const audit of Object.values(lhr?.audits ?? {})) {
    const code = TRACE_RECORDING_ERRORS.find(name => (audit.errorMessage ?? '').includes(`(${name})`));
    if (audit.scoreDisplayMode === 'error' && code) return {code, message: `${audit.id}: ${audit.errorMessage}`};
  }
  return undefined;
}

const jobs = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const chrome = await chromeLauncher.launch({chromePath: jobs.chromePath, chromeFlags: jobs.chromeFlags});
let status = 0;
try {
  for (const {url, output} of jobs.pages) {
    for (let attempt = 0; ; attempt++) {
      // The full-page screenshot is a picture for the HTML report's element previews, not an audit.
      const result = await lighthouse(url, {port: chrome.port, output: 'json', logLevel: 'error',
                                            onlyCategories: jobs.categories, onlyAudits: jobs.audits ?? undefined,
                                            disableFullPageScreenshot: true});
      const error = result?.lhr.runtimeError ?? traceRecordingError(result?.lhr);
      if (!error) {
        fs.writeFileSync(output, result.report);
        break;
      }
      if (attempt >= jobs.runtimeErrorsAllowed) {
        console.error(`Runtime error encountered: ${url}: ${error.code} ${error.message}`);
        status = 2;
        break;
      }
      console.error(`Lighthouse again after its own error: ${url}: ${error.code}`);
    }
    if (status) break;
  }
} finally {
  await chrome.kill();
}
process.exit(status);
