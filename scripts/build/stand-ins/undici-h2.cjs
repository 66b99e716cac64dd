// undici's HTTP/2 client in svc's build (scripts/bundle.mjs STAND_INS): its client.js loads it, and with it node:http2,
// node:tls and node:crypto, as it loads; it runs only for a connection ALPN made HTTP/2, which svc never allows.
'use strict';
module.exports = (...args) => require('undici/lib/dispatcher/client-h2.js')(...args);
