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

/** What the markdown files hold: the samples to run, and what is wrong with the fences. */
export interface DocScan {
  readonly samples: DocSample[];
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
  const problems: string[] = [];
  for (const file of files) {
    const scan = scanMarkdown(readFileSync(join(root, file), 'utf8'), relative(root, join(root, file)));
    samples.push(...scan.samples);
    problems.push(...scan.problems);
  }
  return { samples, problems };
}

/** Scans one markdown text; `file` names it in samples and problems. */
export function scanMarkdown(text: string, file: string): DocScan {
  const lines = text.split(/\r?\n/);
  const samples: DocSample[] = [];
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
    for (const { line, name, argument } of pending) {
      if (name === 'expects-output') {
        const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(argument);
        if (quoted) expectedOutput.push(JSON.parse(`"${quoted[1]}"`) as string);
        else problems.push(`${file}:${line}: expects-output needs one double-quoted text`);
      } else if (name === 'skip-reason') {
        if (argument === '') problems.push(`${file}:${line}: skip-reason needs a reason`);
        skipReason = argument;
      } else {
        problems.push(`${file}:${line}: unknown sample directive '${name}' (known: expects-output, skip-reason)`);
      }
    }
    pending = [];
    if (RUN_LANGUAGES.has(language.toLowerCase())) {
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
  return { samples, problems };
}

function closes(line: string, marker: string): boolean {
  const trimmed = line.trim();
  return trimmed.length >= marker.length && trimmed === marker[0].repeat(trimmed.length);
}
