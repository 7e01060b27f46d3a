{{/* Base name of every object: fullnameOverride, else the release name. */}}
{{- define "framewright.fullname" -}}
{{- default .Release.Name .Values.fullnameOverride | trunc 45 | trimSuffix "-" -}}
{{- end -}}

{{/* The name of a component's objects: <fullname>-<component>. Call with (list $ "api"). */}}
{{- define "framewright.componentName" -}}
{{- $root := index . 0 -}}
{{- printf "%s-%s" (include "framewright.fullname" $root) (index . 1) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "framewright.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels of every object. Call with (list $ "component"). */}}
{{- define "framewright.labels" -}}
{{- $root := index . 0 -}}
helm.sh/chart: {{ include "framewright.chart" $root }}
{{ include "framewright.selectorLabels" . }}
app.kubernetes.io/version: {{ $root.Chart.AppVersion | quote }}
app.kubernetes.io/part-of: framewright
app.kubernetes.io/managed-by: {{ $root.Release.Service }}
{{- end -}}

{{/* The labels a Service or a PodDisruptionBudget selects a component's pods by. */}}
{{- define "framewright.selectorLabels" -}}
{{- $root := index . 0 -}}
app.kubernetes.io/name: framewright
app.kubernetes.io/instance: {{ $root.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end -}}

{{- define "framewright.image" -}}
{{- printf "%s:%s" .repository (default .appVersion .tag) -}}
{{- end -}}

{{/* The API's external base URL, without a trailing slash. */}}
{{- define "framewright.publicBaseUrl" -}}
{{- if .Values.publicBaseUrl -}}
{{- .Values.publicBaseUrl | trimSuffix "/" -}}
{{- else if and .Values.api.ingress.enabled .Values.api.ingress.hosts -}}
{{- printf "https://%s" (first .Values.api.ingress.hosts).host -}}
{{- else -}}
{{- printf "http://%s.%s.svc" (include "framewright.componentName" (list . "api")) .Release.Namespace -}}
{{- end -}}
{{- end -}}

{{/* The Secret the API and the operator read (DATABASE_URL, SIGNING_SECRET, ...). */}}
{{- define "framewright.secretName" -}}
{{- default (include "framewright.fullname" .) .Values.secrets.existingSecret -}}
{{- end -}}

{{/* The Secret of the worker pods (S3 keys and the OpenAI key only), or nothing. */}}
{{- define "framewright.workerSecretName" -}}
{{- if .Values.secrets.existingWorkerSecret -}}
{{- .Values.secrets.existingWorkerSecret -}}
{{- else if and (not .Values.secrets.existingSecret) (or .Values.secrets.inline.s3AccessKeyId .Values.secrets.inline.openaiApiKey) -}}
{{- include "framewright.componentName" (list . "worker") -}}
{{- end -}}
{{- end -}}

{{/* "trial=1,pro=12" from {trial: 1, pro: 12}, in a fixed plan order. */}}
{{- define "framewright.planList" -}}
{{- $out := list -}}
{{- range $plan := list "trial" "starter" "pro" "studio" -}}
{{- if hasKey $.values $plan -}}
{{- $out = append $out (printf "%s=%v" $plan (index $.values $plan | int64)) -}}
{{- end -}}
{{- end -}}
{{- join "," $out -}}
{{- end -}}

{{/*
The restricted Pod Security profile: the pod's part. The images run as 10001:10001 (numeric).
*/}}
{{- define "framewright.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 10001
runAsGroup: 10001
fsGroup: 10001
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* The restricted Pod Security profile: the container's part. /tmp is an emptyDir. */}}
{{- define "framewright.containerSecurityContext" -}}
runAsNonRoot: true
runAsUser: 10001
runAsGroup: 10001
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop:
    - ALL
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* Environment of the API and the operator from the Secret. Call with (list $ (list "KEY" optional) ...). */}}
{{- define "framewright.secretEnv" -}}
{{- $root := index . 0 -}}
{{- range $pair := rest . }}
- name: {{ index $pair 0 }}
  valueFrom:
    secretKeyRef:
      name: {{ include "framewright.secretName" $root }}
      key: {{ index $pair 0 }}
      {{- if index $pair 1 }}
      optional: true
      {{- end }}
{{- end }}
{{- end -}}

{{/* Settings the API and the operator share. */}}
{{- define "framewright.commonEnv" -}}
- name: KUBE_NAMESPACE
  value: {{ .Release.Namespace | quote }}
- name: PUBLIC_BASE_URL
  value: {{ include "framewright.publicBaseUrl" . | quote }}
- name: LOG_LEVEL
  value: {{ .Values.logLevel | quote }}
- name: DATA_DIR
  value: /tmp/framewright
- name: DATABASE_POOL_SIZE
  value: {{ .Values.limits.databasePoolSize | int64 | quote }}
{{- end -}}
