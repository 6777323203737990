import { createDefaultEsmPreset } from 'ts-jest';

/**
 * Interop tests against real servers (Apache httpd, lighttpd, nginx for HTTP/2) and forward
 * proxies (squid, tinyproxy) that the tests start themselves on 127.0.0.1: `npm run test:interop`.
 * Needs the Debian packages apache2, apache2-utils, lighttpd, squid, tinyproxy, microsocks, nginx and curl
 * (see spec/interop/servers/). Same ESM/ts-jest setup as jest.config.js.
 * @type {import('jest').Config}
 */
export default {
  ...createDefaultEsmPreset({ tsconfig: 'tsconfig.json' }),
  testEnvironment: 'node',
  roots: ['<rootDir>/spec/interop'],
  testMatch: ['**/*.interop.spec.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  // no proxy from the machine's environment (spec/support/no-proxy-environment.ts)
  setupFiles: ['<rootDir>/spec/support/no-proxy-environment.ts'],
  // starting a server takes a second; a Digest exchange with a CGI behind it a few milliseconds
  testTimeout: 60_000,
};
