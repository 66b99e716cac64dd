// ajv and ajv-formats in svc's build (scripts/bundle.mjs STAND_INS): conf builds a validator only from a schema, and svc gives it none.
const absent = () => {
  throw new Error("svc's build leaves out conf's schema validator (ajv): svc passes conf no schema");
};

export class Ajv2020 {
  constructor() {
    absent();
  }
}

export default { default: absent };
