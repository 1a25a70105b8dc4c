{{/* The release's base name: the release name, with the chart name unless it already holds it. */}}
{{- define "billing.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* One process's name: (dict "root" $ "name" "accounts"). 50 + 1 + 13 characters stay a DNS label. */}}
{{- define "billing.componentName" -}}
{{- printf "%s-%s" (include "billing.fullname" .root) .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "billing.selectorLabels" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{- define "billing.labels" -}}
{{ include "billing.selectorLabels" . }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: {{ .root.Chart.Name }}
{{- end -}}

{{- define "billing.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) -}}
{{- end -}}
{{- end -}}

{{/* host:port of a service inside the cluster, for the *_ADDRESS variables. */}}
{{- define "billing.serviceAddress" -}}
{{- $service := index .root.Values.services .name -}}
{{- printf "%s:%v" (include "billing.componentName" .) $service.port -}}
{{- end -}}

{{/* A secretKeyRef env entry: (dict "env" "DATABASE_URL" "secret" .Values.secrets.databaseUrl). */}}
{{- define "billing.secretEnv" -}}
- name: {{ .env }}
  valueFrom:
    secretKeyRef:
      name: {{ required (printf "secrets: the Secret holding %s needs a name" .env) .secret.name }}
      key: {{ required (printf "secrets: the key of %s in its Secret is needed" .env) .secret.key }}
{{- end -}}

{{/* The Secret a service reads DATABASE_URL from: its own (databaseUrlSecret) or the shared one. */}}
{{- define "billing.databaseUrlSecret" -}}
{{- $service := index .root.Values.services .name -}}
{{- toYaml ($service.databaseUrlSecret | default .root.Values.secrets.databaseUrl) -}}
{{- end -}}

{{/* The writable directory of a read-only pod. */}}
{{- define "billing.tmpVolume" -}}
- name: tmp
  emptyDir:
    sizeLimit: {{ .Values.tmpSizeLimit }}
{{- end -}}

{{- define "billing.grpcServiceNames" -}}
{{- range $name, $service := .Values.services }}{{ if eq $service.protocol "grpc" }}{{ $name }} {{ end }}{{ end -}}
{{- end -}}
