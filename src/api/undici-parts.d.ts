// Types for the undici modules src/api/http.ts loads directly (undici types only its package index).
declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  const request: (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  export default request;
}
declare module 'undici/lib/dispatcher/agent.js' {
  export { Agent as default } from 'undici';
}
declare module 'undici/lib/dispatcher/proxy-agent.js' {
  export { ProxyAgent as default } from 'undici';
}
declare module 'undici/lib/dispatcher/pool.js' {
  export { Pool as default } from 'undici';
}
declare module 'undici/lib/api/api-connect.js' {
  import type { Dispatcher } from 'undici';
  const connect: (this: Dispatcher, opts: Dispatcher.ConnectOptions) => Promise<Dispatcher.ConnectData>;
  export default connect;
}
