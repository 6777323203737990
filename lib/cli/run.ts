import type { Writable } from 'node:stream';
import type { HttpConfig } from '../config/http-config.js';
import { Download } from '../download.js';
import type { HttpBuilder } from '../http-builder.js';
import type { FromServer } from '../model/from-server.js';
import { parseCommandLine, VERBS, type CliRequest, type CliVerb, type Command } from './args.js';
import { describeError, EXIT, exitCodeForStatus, isBrokenPipe, oneLine, UsageError } from './failure.js';
import { HELP_TEXT, VERSION_TEXT } from './help.js';
import { ProgressBar } from './progress-bar.js';
import { formatHead, outputStyle, writeBody, writeStreamed, writeText } from './render.js';
import { HttpException } from '../core/errors.js';
import { applyRequest, checkFiles, checkTargets, createClient } from './request.js';
import { openFileCache } from './file-cache.js';
import { loadBody, type CliBody } from './body.js';
import { loadSession, saveSession } from './session.js';
import { processStdin, type Stdin } from './stdin.js';
import { redactUrl } from '../core/redact.js';
import type { Timings } from '../core/timings.js';
import { formatWriteOut, type WriteOutFacts } from './write-out.js';
import { loadTls } from './tls-files.js';
import { inFlagTerms } from './flag-hints.js';
import { exchangePrinter, printParts, sendsNothing } from './print-modes.js';
import { helpText } from './help-topics.js';
import { withNetrc } from './netrc.js';
import { applyPageShape } from './page-args.js';
import { toHeaderNamedFile } from './header-named-file.js';
import { alreadyComplete } from './args-downloads.js';

/** The process around `hb`: its streams, environment and Ctrl-C. */
export interface CliIo {
  readonly stdout: Writable & { readonly isTTY?: boolean };
  readonly stderr: Writable & { readonly isTTY?: boolean; readonly columns?: number };
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where `@-` bodies come from; the process's standard input when not given. */
  readonly stdin?: Stdin;
  /** Aborted when the user interrupts: the request is cancelled (a partial `-o` file removed). */
  readonly signal?: AbortSignal;
}

/**
 * Runs `hb` with `argv` (the arguments after the script) and resolves to the exit code (see
 * {@link EXIT}). Never rejects: every failure becomes one line on `io.stderr`, `hb: ...`.
 *
 * @example
 * process.exitCode = await run(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
 */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  let command: Command;
  try {
    command = parseCommandLine(argv);
  } catch (error) {
    return fail(io, error, [], EXIT.USAGE);
  }
  if (command.kind === 'help') return (await writeText(io.stdout, command.topic === undefined ? HELP_TEXT : helpText(command.topic)), EXIT.OK);
  if (command.kind === 'version') return (await writeText(io.stdout, VERSION_TEXT), EXIT.OK);
  let { request } = command;
  const secrets = secretsOf(request);
  let http: HttpBuilder | undefined;
  try {
    request = await withNetrc(request, io.env);
    secrets.push(...secretsOf(request)); // the .netrc password too
    await checkFiles(request);
    checkTargets(request);
    const tls = await loadTls(request.tls, request.insecure);
    const body = await loadBody(request, io.stdin ?? processStdin(), io.signal);
    const session = request.session === undefined ? undefined : { file: request.session, jar: await loadSession(request.session) };
    // a folder it cannot trust warns on stderr, and the run goes on without a cache
    const offline = sendsNothing(request);
    const cache = request.cache === undefined || offline ? undefined : await openFileCache(request.cache, io.stderr);
    http = createClient(request, tls, session?.jar, io.stderr, cache, exchangePrinter(request, io.stdout));
    try {
      if (offline) return await printOnly(http, request, body);
      return await (request.paginate ? paginate(http, request, body, io, secrets) : send(http, request, body, io, secrets));
    } finally {
      // what the server set before a failure is kept too, as a browser keeps it
      if (session !== undefined && !offline) await saveSession(session.file, session.jar);
    }
  } catch (error) {
    // the reader of stdout went away (`hb get ... | head`): stop quietly, as other commands do
    if (isBrokenPipe(error)) return EXIT.OK;
    if ((error as { name?: unknown } | null)?.name === 'AbortError' && io.signal?.aborted === true) {
      return fail(io, new Error('interrupted'), secrets, EXIT.INTERRUPTED, false);
    }
    // the library's ConfigError is bad input too (a header value it refuses): nothing was sent
    const usage = error instanceof UsageError || (error as { name?: unknown } | null)?.name === 'ConfigError';
    return fail(io, error, secrets, usage ? EXIT.USAGE : EXIT.FAILURE);
  } finally {
    await http?.close();
  }
}

/** Sends the request, writes the response, and returns the exit code for its status. */
async function send(http: HttpBuilder, request: CliRequest, body: CliBody | undefined, io: CliIo, secrets: readonly string[]): Promise<number> {
  const style = outputStyle(io.stdout.isTTY, io.env);
  const bar = request.output !== undefined && io.stderr.isTTY === true ? new ProgressBar(io.stderr) : undefined;
  const parts = printParts(request);
  let response: FromServer | undefined;
  let headWritten = false;
  const writeHead = async (fromServer: FromServer) => {
    if (!parts.includes('h') || headWritten) return;
    headWritten = true;
    await writeText(io.stdout, formatHead(fromServer, style.colour));
  };
  const capture = async (fromServer: FromServer) => {
    response = fromServer;
    await writeHead(fromServer); // a response without body never reaches the parser
    return null;
  };

  // what -w reports besides the response: redirects followed and body bytes received
  let redirects = 0;
  let received = 0;
  const block = (c: HttpConfig) => {
    applyRequest(c, request, body);
    if (io.signal !== undefined) c.execution.signal = io.signal;
    if (request.writeOut !== undefined) c.execution.hooks = { beforeRedirect: () => void redirects++ };
    if (bar !== undefined || request.writeOut !== undefined) {
      c.execution.onDownloadProgress = (progress) => {
        received = progress.transferred;
        bar?.update(progress);
      };
    }
    if (request.output !== undefined) {
      if (request.download.headerName) toHeaderNamedFile(c, request.output);
      else Download.toFile(c, request.output, { resume: request.download.resume });
    } else {
      // every content type: the body goes to stdout as it arrives (JSON pretty on a terminal; with --stream, line by line)
      c.response.parser('*/*', async (fromServer) => {
        await writeHead(fromServer);
        if (!parts.includes('b')) return null;
        if (request.stream && fromServer.statusCode < 300) await writeStreamed(fromServer, io.stdout);
        else await writeBody(fromServer, io.stdout, style);
        return null;
      });
    }
    c.response.success(capture);
    c.response.failure(capture);
  };

  const writeOut = async (facts: Omit<WriteOutFacts, 'redirects' | 'sizeDownload'>) => {
    if (request.writeOut !== undefined) await writeText(io.stdout, formatWriteOut(request.writeOut, { ...facts, redirects, sizeDownload: received }));
  };
  try {
    // every status reaches the handlers above (never an HttpException): what throws got no response
    await (isVerb(request.verb) ? http[request.verb](block) : http.request(request.verb, block));
  } catch (error) {
    // as curl: -w is written after a failure too, with http_code 000
    const timings = (error as { timings?: Timings } | null)?.timings;
    await writeOut({ statusCode: undefined, httpVersion: undefined, url: displayUrl(request.url), timings });
    throw error;
  } finally {
    bar?.finish();
  }
  if (response === undefined) throw new Error('no response was handled');
  await writeOut({ statusCode: response.statusCode, httpVersion: response.httpVersion, url: displayUrl(new URL(response.uri)), timings: response.timings });
  if (response.statusCode < 400 || (await alreadyComplete(request, response))) return EXIT.OK;
  return failStatus(io, response, response.uri, request, secrets);
}

/** `--offline`, `--curl`: the request goes through the client (headers, body, auth) to a backend that prints it instead of sending. */
async function printOnly(http: HttpBuilder, request: CliRequest, body: CliBody | undefined): Promise<number> {
  const block = (c: HttpConfig) => applyRequest(c, request, body);
  await (isVerb(request.verb) ? http[request.verb](block) : http.request(request.verb, block));
  return EXIT.OK;
}

function isVerb(method: string): method is CliVerb {
  return (VERBS as readonly string[]).includes(method);
}

/** `--paginate`: every item of every page as one JSON line; a failing page ends it as a failing status does. */
async function paginate(http: HttpBuilder, request: CliRequest, body: CliBody | undefined, io: CliIo, secrets: readonly string[]): Promise<number> {
  const block = (c: HttpConfig) => {
    applyRequest(c, request, body);
    applyPageShape(c, request.pages);
    if (io.signal !== undefined) c.execution.signal = io.signal;
  };
  try {
    for await (const item of http.paginate(block)) await writeText(io.stdout, `${JSON.stringify(item) ?? 'null'}\n`);
  } catch (error) {
    if (!(error instanceof HttpException) || error.url === undefined) throw error;
    return failStatus(io, error, error.url, request, secrets);
  }
  return EXIT.OK;
}

/** `hb: 404 Not Found (GET http://host/path)` (the URL that answered, after redirects) and the exit code for the status. */
function failStatus(io: CliIo, response: { statusCode: number; message: string }, url: string, request: CliRequest, secrets: readonly string[]): number {
  const reason = response.message === '' ? '' : ` ${response.message}`;
  const line = `${response.statusCode}${reason} (${request.verb.toUpperCase()} ${displayUrl(new URL(url))})`;
  return fail(io, new Error(line), secrets, exitCodeForStatus(response.statusCode), false);
}

/** Writes `hb: <error>` as one line on stderr and returns `code`. */
function fail(io: CliIo, error: unknown, secrets: readonly string[], code: number, named = true): number {
  const text = error instanceof UsageError ? `${error.message}; see hb --help` : named ? inFlagTerms(describeError(error)) : (error as Error).message;
  io.stderr.write(`hb: ${oneLine(text, secrets)}\n`);
  return code;
}

/** The passwords and tokens of this command line, kept out of every message. */
function secretsOf(request: CliRequest): string[] {
  const auth = request.auth;
  const secret = auth === undefined ? '' : auth.scheme === 'bearer' ? auth.token : auth.password;
  const secrets = [secret, request.url.password, safeDecode(request.url.password), request.tls.passphrase ?? ''];
  return secrets.filter((s) => s !== '');
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The URL without its user name and password, credential-like query values hidden (as debug lines show it). */
function displayUrl(url: URL): string {
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return redactUrl(copy.href);
}
