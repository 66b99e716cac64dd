import pkg from '../package.json';

export const SVC_VERSION: string = pkg.version;
/** The npm package svc is published as (the command stays `svc`): the update check reads its registry document. */
export const SVC_PACKAGE: string = pkg.name;
/** package.json's `repository`: a registry document is svc's own only when it names the same one. */
export const SVC_REPOSITORY: string | { url?: string } = pkg.repository;
export const USER_AGENT = `svc/${SVC_VERSION}`;
