// Every test talks to 127.0.0.1 directly unless it sets client.proxy itself: a machine's own
// proxy variables (a CI runner's, a developer's) must not route the suite through a proxy.
// Tests of the environment's rules pass their own variables (or set and restore these).
for (const name of ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY', 'no_proxy', 'NO_PROXY']) delete process.env[name];
