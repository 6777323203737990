/**
 * The packaging check of `httpbuilder-ts/opentelemetry` (a step of scripts/check-package.ts), in the
 * consumer folder where the tarball is installed:
 *
 * - without `@opentelemetry/api` (an optional peer, not installed with the package), `import` and
 *   `require()` of the entry fail with the ConfigError that says what to install;
 * - with it (the repository's own, linked in), both load, `require()` gets the CommonJS build, and
 *   a request through `openTelemetry()` sends the trace context of its attempt's span;
 * - a TypeScript consumer compiles against the entry's declarations (`module: nodenext`).
 */
import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { check, sh, step } from './shell.js';

const API = '@opentelemetry/api';

const WITHOUT_API = `
import { createRequire } from 'node:module';
const expected = "httpbuilder-ts/opentelemetry needs the '${API}' package: npm install ${API}";
const imported = await import('httpbuilder-ts/opentelemetry').then(() => 'loaded', (e) => e.name + ': ' + e.message);
if (imported !== 'ConfigError: ' + expected) throw new Error('import without ${API}: ' + imported);
let required = 'loaded';
try { createRequire(import.meta.url)('httpbuilder-ts/opentelemetry'); } catch (e) { required = e.name + ': ' + e.message; }
if (required !== 'ConfigError: ' + expected) throw new Error('require() without ${API}: ' + required);
console.log('without the api ok');
`;

// a hand-made tracer provider (the API alone has none that records): its span's trace id must reach the server
const WITH_API = `
import { createRequire } from 'node:module';
import { trace } from '${API}';
import { HttpBuilder } from 'httpbuilder-ts';
import { openTelemetry } from 'httpbuilder-ts/opentelemetry';
const require = createRequire(import.meta.url);
const file = require.resolve('httpbuilder-ts/opentelemetry');
if (!/dist[\\\\/]cjs[\\\\/]opentelemetry-require\\.js$/.test(file)) throw new Error('require() of httpbuilder-ts/opentelemetry is not the CommonJS build: ' + file);
if (typeof require('httpbuilder-ts/opentelemetry').openTelemetry !== 'function') throw new Error('require(): no openTelemetry');
const traceId = '0af7651916cd43dd8448eb211c80319c';
const span = trace.wrapSpanContext({ traceId, spanId: 'b7ad6b7169203331', traceFlags: 1 });
const tracerProvider = { getTracer: () => ({ startSpan: () => span }) };
const propagator = { inject: (ctx, carrier, setter) => setter.set(carrier, 'x-trace-id', trace.getSpanContext(ctx)?.traceId ?? 'none'), extract: (ctx) => ctx, fields: () => ['x-trace-id'] };
const http = HttpBuilder.configure((c) => { c.request.uri = process.argv[2] + '/headers'; c.client.telemetry = openTelemetry({ tracerProvider, propagator }); });
const seen = await http.get();
await http.close();
if (seen['x-trace-id'] !== traceId) throw new Error('the trace context did not reach the server: ' + JSON.stringify(seen));
console.log('with the api ok');
`;

const TS_CONSUMER = `
import { HttpBuilder } from 'httpbuilder-ts';
import { openTelemetry, type OpenTelemetryOptions } from 'httpbuilder-ts/opentelemetry';
import { trace } from '${API}';
const options: OpenTelemetryOptions = { tracerProvider: trace.getTracerProvider() };
export const http = HttpBuilder.configure((c) => void (c.client.telemetry = openTelemetry(options)));
// @ts-expect-error a tracer provider is not a meter provider
openTelemetry({ meterProvider: trace.getTracerProvider() });
`;

/** `consumer`: the folder the tarball was installed into; `url`: the check's server (its `/headers` echoes the request headers). */
export async function checkOpenTelemetryEntry(root: string, consumer: string, url: string, tsc: string): Promise<void> {
  step(`httpbuilder-ts/opentelemetry without ${API}: a ConfigError naming it, for import and require()`);
  check(!existsSync(join(consumer, 'node_modules', API)), `${API} was installed with the package`);
  await writeFile(join(consumer, 'otel-without-api.mjs'), WITHOUT_API);
  check((await sh(process.execPath, ['otel-without-api.mjs'], consumer)).includes('without the api ok'), 'otel-without-api.mjs did not finish');

  step(`httpbuilder-ts/opentelemetry with ${API}: import, require(), the trace context sent, the declarations`);
  await mkdir(join(consumer, 'node_modules', '@opentelemetry'), { recursive: true });
  await symlink(join(root, 'node_modules', API), join(consumer, 'node_modules', API), 'junction');
  await writeFile(join(consumer, 'otel-with-api.mjs'), WITH_API);
  check((await sh(process.execPath, ['otel-with-api.mjs', url], consumer)).includes('with the api ok'), 'otel-with-api.mjs did not finish');
  await writeFile(join(consumer, 'otel-consumer.ts'), TS_CONSUMER);
  const compilerOptions = {
    target: 'ES2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    types: ['node'],
  };
  await writeFile(join(consumer, 'tsconfig.otel.json'), JSON.stringify({ compilerOptions, files: ['otel-consumer.ts'] }, null, 2));
  await sh(process.execPath, [tsc, '-p', 'tsconfig.otel.json'], consumer);
}
