// node:crypto for conf in svc's build (scripts/bundle.mjs STAND_INS): only conf's `encryptionKey` option, which svc
// does not give, uses it; each function requires node:crypto on its first call.
'use strict';
const names = ['pbkdf2Sync', 'randomBytes', 'createCipheriv', 'createDecipheriv'];
module.exports = Object.fromEntries(names.map((name) => [name, (...args) => require('node:crypto')[name](...args)]));
