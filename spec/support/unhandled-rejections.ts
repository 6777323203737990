import { afterAll, beforeAll, expect } from '@jest/globals';

/** Fails the file when any promise rejection went unhandled while its tests ran (a transport error nobody listened to). */
export function expectNoUnhandledRejections(): void {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  beforeAll(() => {
    process.on('unhandledRejection', onUnhandled);
  });
  afterAll(() => {
    process.off('unhandledRejection', onUnhandled);
    expect(unhandled).toEqual([]);
  });
}
