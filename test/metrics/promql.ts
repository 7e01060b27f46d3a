/** PromQL's aggregations, functions and keywords: identifiers that are not series. */
const PROMQL_WORDS = new Set(
  `sum min max avg group stddev stdvar count count_values bottomk topk quantile limitk limit_ratio
  by without on ignoring group_left group_right bool and or unless offset atan2 inf nan
  abs absent absent_over_time ceil changes clamp clamp_max clamp_min day_of_month day_of_week day_of_year
  days_in_month delta deriv exp floor histogram_avg histogram_count histogram_fraction histogram_quantile
  histogram_stddev histogram_stdvar histogram_sum double_exponential_smoothing holt_winters hour idelta
  increase irate label_join label_replace ln log2 log10 minute month predict_linear rate resets round
  scalar sgn sort sort_desc sort_by_label sort_by_label_desc sqrt time timestamp vector year
  avg_over_time min_over_time max_over_time sum_over_time count_over_time quantile_over_time
  stddev_over_time stdvar_over_time last_over_time present_over_time mad_over_time
  acos acosh asin asinh atan atanh cos cosh sin sinh tan tanh deg rad pi`.split(/\s+/),
);

/**
 * The series a PromQL expression names: identifiers followed by `{`, `[`, `)` or whitespace (or
 * the end), once strings, label matchers, ranges and by/on label lists are blanked, less PromQL's
 * own words. A function call (`rate(`) is followed by `(`, so it never matches.
 */
export function seriesNames(expr: string): string[] {
  const e = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
    .replace(/\{[^}]*\}/g, '{}')
    .replace(/\[[^\]]*\]/g, '[]')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '$1 ()');
  const names = new Set<string>();
  for (const m of e.matchAll(/(?<![\w:.$])([a-zA-Z_:][a-zA-Z0-9_:]*)(?=\s*[{[)]|\s|$)/g)) {
    const name = m[1] as string;
    if (!PROMQL_WORDS.has(name)) names.add(name);
  }
  return [...names];
}
