// semver in svc's build (scripts/bundle.mjs STAND_INS): conf compares versions only for `migrations`, which svc does not use.
const absent = () => {
  throw new Error("svc's build leaves out semver: svc passes conf no migrations");
};

export default { clean: absent, eq: absent, gt: absent, lte: absent, satisfies: absent };
