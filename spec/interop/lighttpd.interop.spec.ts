// Digest SHA-256 and Digest MD5, qop=auth (mod_auth, htdigest files) against lighttpd.
import { authInterop } from './auth-matrix.js';
import { LIGHTTPD_AREAS, startLighttpd } from './servers/index.js';
import { usePeer } from './servers/use-peer.js';

authInterop(usePeer(startLighttpd), LIGHTTPD_AREAS);
