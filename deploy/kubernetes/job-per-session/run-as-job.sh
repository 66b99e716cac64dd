#!/bin/sh
# `svc worker run --on-work /etc/svc-dispatch/run-as-job.sh`: one Kubernetes Job per claimed row. The Job's pod runs
# `svc worker serve`; the hand-off (session token included) goes to it over `kubectl attach`, never into the Job's
# spec, a Secret or a file. The dispatcher keeps the lease; when it ends this script (lease lost, shutdown) the Job goes.
set -eu
job="svc-row-$(printf '%s' "$SVC_WORK_ID" | tr 'A-Z_' 'a-z-' | tr -cd 'a-z0-9-' | cut -c1-40)-g$SVC_WORK_GENERATION"
cleanup() { kubectl delete job "$job" --ignore-not-found --wait=false >/dev/null 2>&1 || true; }
trap cleanup EXIT
trap 'exit 143' TERM INT
sed -e "s|__JOB_NAME__|$job|g" -e "s|__WORK_ID__|$SVC_WORK_ID|g" -e "s|__SESSION_ID__|$SVC_SESSION_ID|g" \
  -e "s|__BASE_URL__|$SVC_BASE_URL|g" -e "s|__API_VERSION__|$SVC_API_VERSION|g" /etc/svc-dispatch/job-template.yaml |
  kubectl create -f - >/dev/null
kubectl wait --for=condition=Ready pod -l "job-name=$job" --timeout=180s >/dev/null
pod=$(kubectl get pod -l "job-name=$job" -o jsonpath='{.items[0].metadata.name}')
# Standard input (the hand-off, then a stop line on shutdown) goes to `svc worker serve` in the pod.
kubectl attach -i "$pod" -c serve
