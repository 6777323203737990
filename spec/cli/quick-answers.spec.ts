import { describe, expect, it } from '@jest/globals';
import { HELP_TEXT, VERSION_TEXT } from '../../lib/cli/help.js';
import { helpText } from '../../lib/cli/help-topics.js';
import { helpOrVersionText } from '../../lib/cli/quick-answers.js';

// hb's answers that need no library (cli.ts prints them before loading node-platform and run.ts)
describe('helpOrVersionText', () => {
  it('answers --version, --help, -h and help <topic> wherever they stand', async () => {
    expect(await helpOrVersionText(['--version'])).toBe(VERSION_TEXT);
    expect(await helpOrVersionText(['get', 'localhost:8080', '--version'])).toBe(VERSION_TEXT);
    expect(await helpOrVersionText(['--help'])).toBe(HELP_TEXT);
    expect(await helpOrVersionText(['-h'])).toBe(HELP_TEXT);
    expect(await helpOrVersionText(['help', 'tls'])).toBe(helpText('tls'));
  });

  it('leaves requests and mistakes to run(), which reports them as it always did', async () => {
    expect(await helpOrVersionText(['get', 'localhost:8080'])).toBeUndefined();
    expect(await helpOrVersionText(['--bogus'])).toBeUndefined();
    expect(await helpOrVersionText(['help', 'no-such-topic'])).toBeUndefined();
    expect(await helpOrVersionText([])).toBeUndefined();
  });
});
