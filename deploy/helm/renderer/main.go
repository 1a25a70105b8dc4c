// Command render renders a Helm chart the way `helm template` does, for machines without a helm
// binary (tests, CI). It implements the part of Helm's engine this repository's chart uses: Go's
// text/template with the sprig functions and Helm's own include, tpl, required, toYaml, fromYaml,
// toJson, fromJson and lookup; .Values (values.yaml merged with each -f file, maps deeply, null
// deleting a key), .Release, .Chart (from Chart.yaml), .Capabilities and .Template.
//
// Build (Debian's golang-go, golang-github-masterminds-sprig-dev, golang-gopkg-yaml.v3-dev):
//
//	GOPATH=/usr/share/gocode GO111MODULE=off go build -o render .
//
// Usage:
//
//	render --chart DIR [-f values.yaml]... [--name RELEASE] [--namespace NS] [--upgrade]
//	       [--api-versions group/version]... [--notes | --values-json]
//
// Prints every rendered manifest as a YAML stream, each document preceded by `# Source: ...` like
// helm; with --notes only the rendered NOTES.txt; with --values-json the merged values as JSON
// (what helm checks against values.schema.json, which this renderer leaves to the caller). A
// template error (a `required` value missing, a `fail`) prints the error and exits 1.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig"
	"gopkg.in/yaml.v3"
)

type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// versionSet is .Capabilities.APIVersions: templates ask it `.Capabilities.APIVersions.Has "x/v1"`.
type versionSet []string

func (s versionSet) Has(version string) bool {
	for _, v := range s {
		if v == version {
			return true
		}
	}
	return false
}

// The API versions a current cluster serves, as helm reports them without a cluster.
var defaultAPIVersions = []string{
	"v1", "apps/v1", "batch/v1", "autoscaling/v1", "autoscaling/v2", "policy/v1",
	"networking.k8s.io/v1", "rbac.authorization.k8s.io/v1",
}

func main() {
	var valueFiles, apiVersions stringList
	chartDir := flag.String("chart", "", "the chart directory (holding Chart.yaml)")
	name := flag.String("name", "release-name", "the release name")
	namespace := flag.String("namespace", "default", "the release namespace")
	upgrade := flag.Bool("upgrade", false, "render as an upgrade (.Release.IsUpgrade) instead of an install")
	notes := flag.Bool("notes", false, "print only the rendered NOTES.txt")
	valuesJSON := flag.Bool("values-json", false, "print only the merged values, as JSON")
	flag.Var(&valueFiles, "f", "a values file merged over the chart's values.yaml (repeatable, later wins)")
	flag.Var(&apiVersions, "api-versions", "an extra API version for .Capabilities.APIVersions (repeatable)")
	flag.Parse()
	if *chartDir == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: render --chart DIR [-f values.yaml]... [--name NAME] [--namespace NS] [--upgrade] [--api-versions V]... [--notes]")
		os.Exit(2)
	}
	release := map[string]interface{}{
		"Name": *name, "Namespace": *namespace, "Service": "Helm",
		"IsInstall": !*upgrade, "IsUpgrade": *upgrade, "Revision": 1,
	}
	if *upgrade {
		release["Revision"] = 2
	}
	if *valuesJSON {
		values, err := mergedValues(*chartDir, valueFiles)
		if err == nil {
			var text []byte
			text, err = json.MarshalIndent(values, "", "  ")
			fmt.Println(string(text))
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "Error:", err)
			os.Exit(1)
		}
		return
	}
	out, err := render(*chartDir, valueFiles, release, append(versionSet(defaultAPIVersions), apiVersions...), *notes)
	if err != nil {
		fmt.Fprintln(os.Stderr, "Error:", err)
		os.Exit(1)
	}
	fmt.Print(out)
}

func render(chartDir string, valueFiles []string, release map[string]interface{}, apiVersions versionSet, notesOnly bool) (string, error) {
	chart, err := readChart(chartDir)
	if err != nil {
		return "", err
	}
	values, err := mergedValues(chartDir, valueFiles)
	if err != nil {
		return "", err
	}
	chartName, _ := chart["Name"].(string)
	files, err := templateFiles(filepath.Join(chartDir, "templates"))
	if err != nil {
		return "", err
	}

	root := template.New("gotpl")
	// Helm's default (non-strict) mode: a missing key is empty, not an error.
	root.Option("missingkey=zero")
	root.Funcs(funcMap(root))
	for _, file := range files {
		text, err := os.ReadFile(filepath.Join(chartDir, "templates", file))
		if err != nil {
			return "", err
		}
		if _, err := root.New(chartName + "/templates/" + file).Parse(string(text)); err != nil {
			return "", err
		}
	}

	base := map[string]interface{}{
		"Values":       values,
		"Release":      release,
		"Chart":        chart,
		"Capabilities": capabilities(apiVersions),
		"Files":        map[string]interface{}{},
	}
	var out strings.Builder
	for _, file := range files {
		isNotes := file == "NOTES.txt"
		if strings.HasPrefix(filepath.Base(file), "_") || isNotes != notesOnly {
			continue
		}
		name := chartName + "/templates/" + file
		scope := map[string]interface{}{}
		for k, v := range base {
			scope[k] = v
		}
		scope["Template"] = map[string]interface{}{"Name": name, "BasePath": chartName + "/templates"}
		var buf bytes.Buffer
		if err := root.ExecuteTemplate(&buf, name, scope); err != nil {
			return "", cleanError(err)
		}
		text := strings.ReplaceAll(buf.String(), "<no value>", "")
		if strings.TrimSpace(text) == "" {
			continue
		}
		if isNotes {
			out.WriteString(text)
			continue
		}
		fmt.Fprintf(&out, "---\n# Source: %s\n%s\n", name, strings.TrimRight(text, "\n"))
	}
	return out.String(), nil
}

// mergedValues is .Values: the chart's values.yaml with each file merged over it in turn.
func mergedValues(chartDir string, valueFiles []string) (map[string]interface{}, error) {
	values, err := readValues(filepath.Join(chartDir, "values.yaml"), true)
	if err != nil {
		return nil, err
	}
	for _, file := range valueFiles {
		override, err := readValues(file, false)
		if err != nil {
			return nil, err
		}
		values = coalesce(values, override)
	}
	return values, nil
}

// cleanError keeps the message of `required` and `fail` readable (text/template wraps them).
func cleanError(err error) error {
	var execErr template.ExecError
	if errors.As(err, &execErr) {
		return fmt.Errorf("%s", execErr.Error())
	}
	return err
}

func capabilities(apiVersions versionSet) map[string]interface{} {
	return map[string]interface{}{
		"APIVersions": apiVersions,
		"KubeVersion": map[string]interface{}{"Version": "v1.30.0", "GitVersion": "v1.30.0", "Major": "1", "Minor": "30"},
		"HelmVersion": map[string]interface{}{"Version": "v3.15.0"},
	}
}

// templateFiles lists templates/ recursively, sorted, as paths relative to it.
func templateFiles(dir string) ([]string, error) {
	var files []string
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if info.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	sort.Strings(files)
	return files, err
}

// readChart turns Chart.yaml into .Chart, whose fields helm capitalises (.Chart.Name, .Chart.AppVersion).
func readChart(dir string) (map[string]interface{}, error) {
	raw, err := readValues(filepath.Join(dir, "Chart.yaml"), true)
	if err != nil {
		return nil, err
	}
	chart := map[string]interface{}{}
	for key, value := range raw {
		switch key {
		case "apiVersion":
			chart["APIVersion"] = value
		case "appVersion":
			chart["AppVersion"] = value
		case "kubeVersion":
			chart["KubeVersion"] = value
		default:
			chart[strings.ToUpper(key[:1])+key[1:]] = value
		}
	}
	if _, ok := chart["Name"].(string); !ok {
		return nil, fmt.Errorf("%s: Chart.yaml has no name", dir)
	}
	return chart, nil
}

func readValues(path string, mustExist bool) (map[string]interface{}, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		if !mustExist || !os.IsNotExist(err) {
			return nil, err
		}
		return map[string]interface{}{}, nil
	}
	values := map[string]interface{}{}
	if err := yaml.Unmarshal(text, &values); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return values, nil
}

// coalesce merges override into base as helm merges values files: maps deeply, anything else
// replaced, and a null in the override deleting the key.
func coalesce(base, override map[string]interface{}) map[string]interface{} {
	merged := map[string]interface{}{}
	for k, v := range base {
		merged[k] = v
	}
	for k, v := range override {
		if v == nil {
			delete(merged, k)
			continue
		}
		baseMap, baseIsMap := merged[k].(map[string]interface{})
		overrideMap, overrideIsMap := v.(map[string]interface{})
		if baseIsMap && overrideIsMap {
			merged[k] = coalesce(baseMap, overrideMap)
		} else {
			merged[k] = v
		}
	}
	return merged
}

func toYAML(v interface{}) string {
	var buf bytes.Buffer
	encoder := yaml.NewEncoder(&buf)
	encoder.SetIndent(2)
	if err := encoder.Encode(v); err != nil {
		// Helm swallows the error the same way: the manifest then fails validation visibly.
		return ""
	}
	_ = encoder.Close()
	return strings.TrimSuffix(buf.String(), "\n")
}

func fromYAML(text string) map[string]interface{} {
	m := map[string]interface{}{}
	if err := yaml.Unmarshal([]byte(text), &m); err != nil {
		m["Error"] = err.Error()
	}
	return m
}

// funcMap is sprig's (less env and expandenv, which helm removes) plus helm's own functions.
func funcMap(root *template.Template) template.FuncMap {
	f := sprig.TxtFuncMap()
	delete(f, "env")
	delete(f, "expandenv")
	f["toYaml"] = toYAML
	f["fromYaml"] = fromYAML
	f["include"] = func(name string, data interface{}) (string, error) {
		var buf bytes.Buffer
		if err := root.ExecuteTemplate(&buf, name, data); err != nil {
			return "", err
		}
		return buf.String(), nil
	}
	f["tpl"] = func(text string, data interface{}) (string, error) {
		clone, err := root.Clone()
		if err != nil {
			return "", err
		}
		t, err := clone.New("tpl").Parse(text)
		if err != nil {
			return "", err
		}
		var buf bytes.Buffer
		if err := t.Execute(&buf, data); err != nil {
			return "", err
		}
		return strings.ReplaceAll(buf.String(), "<no value>", ""), nil
	}
	f["required"] = func(message string, value interface{}) (interface{}, error) {
		if value == nil {
			return nil, errors.New(message)
		}
		if s, ok := value.(string); ok && s == "" {
			return nil, errors.New(message)
		}
		return value, nil
	}
	// No cluster to look into: helm template answers an empty object too.
	f["lookup"] = func(apiVersion, kind, namespace, name string) map[string]interface{} {
		return map[string]interface{}{}
	}
	return f
}
