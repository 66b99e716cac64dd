#!/bin/sh
# `svc worker run --on-work /etc/svc-dispatch/run-as-job.sh`: one Kubernetes Job per claimed row. The Job's pod runs
# `svc worker serve`; the hand-off (session token included) goes to it over `kubectl attach`, never into the Job's
# spec, a Secret or a file. The dispatcher keeps the lease; when it ends this script (lease lost, shutdown) the Job goes.
set -eu
template=${SVC_JOB_TEMPLATE:-/etc/svc-dispatch/job-template.yaml}

# The IDs come from the service: data, never YAML or sed syntax. Each is checked against a plain ID's characters
# (one line, no quote, no space, no `: | & # *`) before it goes anywhere; anything else is refused, with nothing made.
refuse() {
  echo "run-as-job.sh: $1" >&2
  exit 2
}
plain_id() {
  case $2 in
    '' | *[!A-Za-z0-9_.-]*) refuse "$1 is not a plain ID (letters, digits, _ . -): refused" ;;
  esac
  [ "${#2}" -le 128 ] || refuse "$1 is longer than 128 characters: refused"
}
plain_id SVC_WORK_ID "$SVC_WORK_ID"
plain_id SVC_SESSION_ID "$SVC_SESSION_ID"
case $SVC_WORK_GENERATION in '' | *[!0-9]*) refuse 'SVC_WORK_GENERATION is not a number: refused' ;; esac
[ "${#SVC_WORK_GENERATION}" -le 10 ] || refuse 'SVC_WORK_GENERATION is longer than 10 digits: refused'
case $SVC_API_VERSION in '' | *[!A-Za-z0-9_.-]*) refuse 'SVC_API_VERSION is not a plain version: refused' ;; esac
# The base URL is the operator's, still checked: it goes into sed and a quoted YAML string.
case $SVC_BASE_URL in
  http://* | https://*) ;;
  *) refuse 'SVC_BASE_URL is not an http(s) URL: refused' ;;
esac
case $SVC_BASE_URL in *[!A-Za-z0-9._~:/?#@!\&\$\'\(\)*+,\;=%[\]-]*) refuse 'SVC_BASE_URL holds a character a URL does not: refused' ;; esac

# A name of its own for each ID: the readable part may be shared (case folded, cut at 30), the hash of the whole ID is
# not, so `Work_A1` and `work-a1`, or two IDs alike for 40 characters, never name the same Job.
hash=$(printf '%s' "$SVC_WORK_ID" | sha256sum | cut -c1-10)
readable=$(printf '%s' "$SVC_WORK_ID" | tr 'A-Z_.' 'a-z--' | cut -c1-30)
job="svc-row-$readable-$hash-g$SVC_WORK_GENERATION"

# Only a Job this run created is deleted: a failed create (the name taken) leaves the other run's Job alone.
created=
cleanup() {
  if [ -n "$created" ]; then kubectl delete job "$job" --ignore-not-found --wait=false >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT
trap 'exit 143' TERM INT
# sed's own characters in the URL (& | \) are escaped; the IDs were checked to hold none.
url=$(printf '%s' "$SVC_BASE_URL" | sed -e 's/[&|\\]/\\&/g')
sed -e "s|__JOB_NAME__|$job|g" -e "s|__WORK_ID__|$SVC_WORK_ID|g" -e "s|__SESSION_ID__|$SVC_SESSION_ID|g" \
  -e "s|__BASE_URL__|$url|g" -e "s|__API_VERSION__|$SVC_API_VERSION|g" "$template" |
  kubectl create -f - >/dev/null
created=1
kubectl wait --for=condition=Ready pod -l "job-name=$job" --timeout=180s >/dev/null
pod=$(kubectl get pod -l "job-name=$job" -o jsonpath='{.items[0].metadata.name}')
# Standard input (the hand-off, then a stop line on shutdown) goes to `svc worker serve` in the pod.
kubectl attach -i "$pod" -c serve
