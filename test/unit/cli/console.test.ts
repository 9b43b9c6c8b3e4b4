import { describe, expect, it } from 'vitest';
import { bannerLines, isQuietConsole, requestLine } from '../../../services/cli/console.ts';

// Issue 12, item 7: npm start printed ~1,500 lines on a terminal (22 per ingested file, 12 per
// /healthz request).

describe('npm start on a console', () => {
  it('is quiet only on a terminal with no LOG_LEVEL, outside production', () => {
    expect(isQuietConsole({ isTTY: true, logLevelSet: false, nodeEnv: 'development' })).toBe(true);
    expect(isQuietConsole({ isTTY: false, logLevelSet: false, nodeEnv: 'development' })).toBe(false);
    expect(isQuietConsole({ isTTY: true, logLevelSet: true, nodeEnv: 'development' })).toBe(false);
    expect(isQuietConsole({ isTTY: true, logLevelSet: false, nodeEnv: 'production' })).toBe(false);
  });

  it('prints a request in one line', () => {
    expect(requestLine({ at: new Date('2026-11-23T14:03:07.123Z'), method: 'GET', url: '/healthz', statusCode: 200, ms: 2.4 })).toBe(
      '14:03:07 GET /healthz 200 2ms',
    );
  });

  it('shows the URL, and the demo key when there is one', () => {
    expect(bannerLines('http://127.0.0.1:3000')).toEqual([
      '',
      'Tax certificate data service: http://127.0.0.1:3000  (health: http://127.0.0.1:3000/healthz, docs: http://127.0.0.1:3000/docs)',
      'Ctrl-C stops everything.',
      '',
    ]);
    expect(bannerLines('http://x', 'txc_test_abc')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Demo API key: txc_test_abc /),
        '  curl -H "Authorization: Bearer txc_test_abc" "http://x/api/v1/certificates/search?county=miami-dade&limit=2"',
      ]),
    );
  });
});
