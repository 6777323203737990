/**
 * A script for `spec/logging/debug-env.spec.ts`: one GET of `argv[2]` with no logger configured,
 * so any line on stderr comes from `DEBUG` alone. Prints the result on stdout.
 */
import { HttpBuilder } from '../../lib/index.js';

const http = HttpBuilder.configure((c) => void (c.request.uri = process.argv[2]));
try {
  process.stdout.write(JSON.stringify(await http.get()));
} finally {
  await http.close();
}
