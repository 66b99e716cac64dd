// node:crypto for conf in svc's build (scripts/bundle.mjs STAND_INS): only conf's `encryptionKey` option, which svc
// does not give, uses it; each function requires node:crypto on its first call.
'use strict';
for (const name of ['pbkdf2Sync', 'randomBytes', 'createCipheriv', 'createDecipheriv']) {
  exports[name] = (...args) => require('node:crypto')[name](...args);
}
