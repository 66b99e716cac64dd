// semver, ajv and ajv-formats in svc's build (scripts/bundle.mjs STAND_INS): conf uses semver for its `migrations` alone
// and ajv for a `schema` alone, and svc passes it neither. Any use throws.
const absent = () => {
  throw new Error("svc's build leaves out conf's migrations (semver) and schema validator (ajv): svc passes conf neither");
};

export default new Proxy(absent, { get: () => absent });
export class Ajv2020 {
  constructor() {
    absent();
  }
}
