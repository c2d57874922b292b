import { describe, expect, it } from 'vitest';
import { ExpositionError, parseExposition, sampleValue } from './prometheus-text.ts';

/** A scrape as the format's specification shows them: comments, escapes, a histogram, a summary, timestamps. */
const VALID = `# A comment, ignored.
# HELP http_requests_total The total number of HTTP requests.
# TYPE http_requests_total counter
http_requests_total{method="post",code="200"} 1027 1395066363000
http_requests_total{method="post",code="400"}    3 1395066363000

# HELP msdos_file_access_time_seconds Escapes: a backslash \\\\ and a line feed \\n.
msdos_file_access_time_seconds{path="C:\\\\DIR\\\\FILE.TXT",error="Cannot find file:\\n\\"FILE.TXT\\""} 1.458255915e9
# TYPE a_gauge gauge
a_gauge NaN
a_gauge{sign="minus"} -Inf
# TYPE http_request_duration_seconds histogram
http_request_duration_seconds_bucket{le="0.05"} 24054
http_request_duration_seconds_bucket{le="0.1"} 33444
http_request_duration_seconds_bucket{le="+Inf"} 144320
http_request_duration_seconds_sum 53423
http_request_duration_seconds_count 144320
# TYPE rpc_duration_seconds summary
rpc_duration_seconds{quantile="0.5"} 4773
rpc_duration_seconds{quantile="0.99"} 76656
rpc_duration_seconds_sum 1.7560473e+07
rpc_duration_seconds_count 2693
`;

describe('the strict exposition parser used by the /metrics tests', () => {
  it('reads every construct of the format', () => {
    const families = parseExposition(VALID);
    expect([...families.keys()]).toEqual(['http_requests_total', 'msdos_file_access_time_seconds', 'a_gauge', 'http_request_duration_seconds', 'rpc_duration_seconds']);
    expect(families.get('http_requests_total')).toMatchObject({ type: 'counter', help: 'The total number of HTTP requests.' });
    expect(sampleValue(families, 'http_requests_total', { code: '400' })).toBe(3);
    expect(families.get('msdos_file_access_time_seconds')).toMatchObject({ type: 'untyped', help: 'Escapes: a backslash \\ and a line feed \n.' });
    expect(families.get('msdos_file_access_time_seconds')!.samples[0].labels).toEqual({ path: 'C:\\DIR\\FILE.TXT', error: 'Cannot find file:\n"FILE.TXT"' });
    expect(families.get('a_gauge')!.samples[0]).toEqual({ name: 'a_gauge', labels: {}, value: NaN });
    expect(sampleValue(families, 'a_gauge', { sign: 'minus' })).toBe(-Infinity);
    expect(sampleValue(families, 'http_request_duration_seconds_bucket', { le: '+Inf' })).toBe(144320);
    expect(sampleValue(families, 'rpc_duration_seconds_count')).toBe(2693);
  });

  it.each([
    ['no final line feed', '# TYPE g gauge\ng 1'],
    ['a value that is not a number', '# TYPE g gauge\ng one\n'],
    ['a timestamp that is not an integer', '# TYPE g gauge\ng 1 1.5\n'],
    ['an invalid metric name', '# TYPE g gauge\n1g 1\n'],
    ['a reserved label name', '# TYPE g gauge\ng{__name__="x"} 1\n'],
    ['a label named twice', '# TYPE g gauge\ng{a="1",a="2"} 1\n'],
    ['an unquoted label value', '# TYPE g gauge\ng{a=1} 1\n'],
    ['an unterminated label value', '# TYPE g gauge\ng{a="1} 1\n'],
    ['an unknown escape', '# TYPE g gauge\ng{a="\\t"} 1\n'],
    ['labels without a comma between them', '# TYPE g gauge\ng{a="1" b="2"} 1\n'],
    ['an unknown type', '# TYPE g meter\ng 1\n'],
    ['a TYPE after the samples', 'g 1\n# TYPE g gauge\n'],
    ['two HELP lines', '# HELP g one\n# HELP g two\ng 1\n'],
    ['a series twice', '# TYPE g gauge\ng{a="1"} 1\ng{a="1"} 2\n'],
    ['interleaved families', '# TYPE g gauge\ng 1\n# TYPE h gauge\nh 1\ng{a="1"} 2\n'],
    ['a histogram without +Inf', '# TYPE h histogram\nh_bucket{le="1"} 1\nh_sum 1\nh_count 1\n'],
    ['a histogram whose +Inf bucket is not its count', '# TYPE h histogram\nh_bucket{le="+Inf"} 2\nh_sum 1\nh_count 1\n'],
    ['buckets that are not cumulative', '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n'],
    ['buckets out of order', '# TYPE h histogram\nh_bucket{le="2"} 1\nh_bucket{le="1"} 1\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n'],
    ['a histogram series without _sum', '# TYPE h histogram\nh_bucket{le="+Inf"} 1\nh_count 1\n'],
  ])('refuses %s', (_what, text) => {
    expect(() => parseExposition(text)).toThrow(ExpositionError);
  });
});
