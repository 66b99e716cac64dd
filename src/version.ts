import pkg from '../package.json';

export const SVC_VERSION: string = pkg.version;
export const USER_AGENT = `svc/${SVC_VERSION}`;
