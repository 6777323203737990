// Basic (mod_auth_basic) and Digest MD5, qop=auth (mod_auth_digest) against Apache httpd.
import { authInterop } from './auth-matrix.js';
import { APACHE_AREAS, startApache } from './servers/index.js';
import { usePeer } from './servers/use-peer.js';

authInterop(usePeer(startApache), APACHE_AREAS);
