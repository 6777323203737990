// Finds the code samples of the documentation (README.md and docs/*.md) so that each ```ts block
// can run as a test (spec/docs/samples.spec.ts). Pure text processing: no I/O beyond reading.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One fenced ```ts block. */
export interface DocSample {
  /** The markdown file, relative to the repository root (`docs/handlers.md`). */
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The code between the fences. */
  readonly code: string;
  /** Texts the sample's console output must contain, in this order (`<!-- sample: expects-output "..." -->`). */
  readonly expectedOutput: readonly string[];
}

/**
 * A shell block of `hb` commands (`<!-- sample: hb -->`, or `<!-- sample: hb exit 4 -->` for an
 * example that fails on purpose): each command runs the built CLI and must exit with that code.
 */
export interface HbSample {
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** Each command's arguments after `hb`, as a shell would split them. */
  readonly commands: readonly (readonly string[])[];
  /** The exit code every command must end with (0 unless the directive says otherwise). */
  readonly exitCode: number;
  /** Texts the commands' output (stdout and stderr, in order) must contain, in this order. */
  readonly expectedOutput: readonly string[];
}

/** What the markdown files hold: the samples to run, and what is wrong with the fences. */
export interface DocScan {
  readonly samples: DocSample[];
  readonly hbSamples: HbSample[];
  /** Fences that break the rules (a non-ts block without a skip reason, a skipped ts block, an unknown directive, ...). */
  readonly problems: string[];
}

/** Languages that are run. Every other fenced block must say why it is not, with `<!-- sample: skip-reason ... -->`. */
const RUN_LANGUAGES = new Set(['ts', 'typescript']);
const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/;
const DIRECTIVE = /^\s*<!--\s*sample:\s*([a-z-]+)\s*(.*?)\s*-->\s*$/;

/** README.md and every docs/*.md (not the generated docs/api), relative to `root`, sorted. */
export function docFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => join('docs', name));
  return ['README.md', ...docs];
}

/** Scans the given markdown files (paths relative to `root`). */
export function scanDocs(root: string, files: readonly string[]): DocScan {
  const samples: DocSample[] = [];
  const hbSamples: HbSample[] = [];
  const problems: string[] = [];
  for (const file of files) {
    const scan = scanMarkdown(readFileSync(join(root, file), 'utf8'), relative(root, join(root, file)));
    samples.push(...scan.samples);
    hbSamples.push(...scan.hbSamples);
    problems.push(...scan.problems);
  }
  return { samples, hbSamples, problems };
}

/** Scans one markdown text; `file` names it in samples and problems. */
export function scanMarkdown(text: string, file: string): DocScan {
  const lines = text.split(/\r?\n/);
  const samples: DocSample[] = [];
  const hbSamples: HbSample[] = [];
  const problems: string[] = [];
  let pending: { line: number; name: string; argument: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const directive = DIRECTIVE.exec(lines[i]);
    if (directive) {
      pending.push({ line: i + 1, name: directive[1], argument: directive[2] });
      continue;
    }
    const fence = FENCE.exec(lines[i]);
    if (!fence) {
      if (lines[i].trim() !== '' && pending.length > 0) {
        problems.push(`${file}:${pending[0].line}: a sample directive must come right before a fenced block`);
        pending = [];
      }
      continue;
    }
    const [, marker, language] = fence;
    const start = i + 1;
    const body: string[] = [];
    for (i++; i < lines.length && !closes(lines[i], marker); i++) body.push(lines[i]);
    if (i >= lines.length) problems.push(`${file}:${start}: the fenced block is never closed`);
    const where = `${file}:${start}`;
    const expectedOutput: string[] = [];
    let skipReason: string | undefined;
    let hbExit: number | undefined;
    for (const { line, name, argument } of pending) {
      if (name === 'expects-output') {
        const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(argument);
        if (quoted) expectedOutput.push(JSON.parse(`"${quoted[1]}"`) as string);
        else problems.push(`${file}:${line}: expects-output needs one double-quoted text`);
      } else if (name === 'skip-reason') {
        if (argument === '') problems.push(`${file}:${line}: skip-reason needs a reason`);
        skipReason = argument;
      } else if (name === 'hb') {
        const exit = /^(?:exit (\d{1,3}))?$/.exec(argument);
        if (exit) hbExit = Number(exit[1] ?? 0);
        else problems.push(`${file}:${line}: the hb directive takes nothing or 'exit N'`);
      } else {
        problems.push(`${file}:${line}: unknown sample directive '${name}' (known: expects-output, skip-reason, hb)`);
      }
    }
    pending = [];
    if (hbExit !== undefined) {
      if (RUN_LANGUAGES.has(language.toLowerCase()) || skipReason !== undefined)
        problems.push(`${where}: the hb directive is for a shell block of hb commands, not run otherwise`);
      const commands = hbCommands(body, start, file, problems);
      if (!body.some((text) => text.trim() !== '' && !text.trim().startsWith('#'))) problems.push(`${where}: an hb block needs at least one hb command`);
      hbSamples.push({ file, line: start, commands, exitCode: hbExit, expectedOutput });
    } else if (RUN_LANGUAGES.has(language.toLowerCase())) {
      if (skipReason !== undefined) problems.push(`${where}: a ts sample cannot be skipped (skip-reason is for shell and text blocks only)`);
      samples.push({ file, line: start, code: body.join('\n'), expectedOutput });
    } else {
      if (skipReason === undefined) {
        problems.push(`${where}: a \`\`\`${language || '(no language)'} block is not run: make it \`\`\`ts, or put <!-- sample: skip-reason ... --> before it`);
      }
      if (expectedOutput.length > 0) problems.push(`${where}: expects-output on a block that is not run`);
    }
  }
  if (pending.length > 0) problems.push(`${file}:${pending[0].line}: a sample directive must come right before a fenced block`);
  return { samples, hbSamples, problems };
}

/**
 * The `hb` commands of a block, each split as a shell would (single and double quotes, a
 * trailing `# comment`). Anything a shell would do besides running hb (pipes, redirections,
 * `;`, `&&`, variables) is a problem: the block would not run the way it reads.
 */
function hbCommands(body: readonly string[], start: number, file: string, problems: string[]): string[][] {
  const commands: string[][] = [];
  for (const [offset, text] of body.entries()) {
    if (text.trim() === '' || text.trim().startsWith('#')) continue;
    const where = `${file}:${start + 1 + offset}`;
    const words = shellWords(text);
    if (typeof words === 'string') problems.push(`${where}: ${words}`);
    else if (words[0] !== 'hb') problems.push(`${where}: every command of an hb block starts with hb`);
    else commands.push(words.slice(1));
  }
  return commands;
}

/** `text` split into words the way sh does for plain commands, or what it cannot take. */
function shellWords(text: string): string[] | string {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      if (end < 0) return `an unclosed ${c} quote`;
      const quoted = text.slice(i + 1, end);
      if (c === '"' && /[$`\\]/.test(quoted)) return 'a double-quoted word with $, ` or \\ (write it in single quotes)';
      word = (word ?? '') + quoted;
      i = end;
    } else if (c === ' ' || c === '\t') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === '#' && word === undefined) {
      break;
    } else if ('|&;<>()$`\\*'.includes(c)) {
      return `'${c}' outside quotes: an hb sample runs hb only (put pipes and the like in a skip-reason block)`;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

function closes(line: string, marker: string): boolean {
  const trimmed = line.trim();
  return trimmed.length >= marker.length && trimmed === marker[0].repeat(trimmed.length);
}
