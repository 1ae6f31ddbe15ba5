// Types for parse-prometheus-text-format (it ships none): the families of a Prometheus text exposition.
declare module "parse-prometheus-text-format" {
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
