import { describe, expect, it } from 'vitest';
import { createCounter, createHistogram, renderGauge } from './prometheus.js';

describe('prometheus text', () => {
  it('renders counters per label set with escaped label values', () => {
    const counter = createCounter('x_total', 'Things.');
    counter.inc({ route: '/a', status: '200' });
    counter.inc({ status: '200', route: '/a' }, 2);
    counter.inc({ route: 'say "hi"\n' });
    expect(counter.get({ route: '/a', status: '200' })).toBe(3);
    expect(counter.render().split('\n')).toEqual([
      '# HELP x_total Things.',
      '# TYPE x_total counter',
      'x_total{route="/a",status="200"} 3',
      'x_total{route="say \\"hi\\"\\n"} 1',
    ]);
  });

  it('keeps label sets apart whatever their values hold', () => {
    const counter = createCounter('y_total', 'Things.');
    counter.inc({ a: '1', b: '2' });
    counter.inc({ a: '1","b":"2' });
    counter.inc({ a: '1,b:2' });
    counter.inc({ 'a:1,b': '2' });
    counter.inc({ a: '11:b1:2' });
    counter.inc({ a: '1', b: '2', c: '' });
    counter.inc({ 'a1:11:b': '2' });
    expect(counter.entries().map((entry) => entry.value)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(counter.get({ b: '2', a: '1' })).toBe(1);
  });

  it('renders cumulative histogram buckets, sum and count', () => {
    const histogram = createHistogram('d_seconds', 'Durations.', [1, 10]);
    histogram.observe(0.5, { type: 'a' });
    histogram.observe(5, { type: 'a' });
    histogram.observe(50, { type: 'a' });
    expect(histogram.render()).toContain('d_seconds_bucket{le="1",type="a"} 1');
    expect(histogram.render()).toContain('d_seconds_bucket{le="10",type="a"} 2');
    expect(histogram.render()).toContain('d_seconds_bucket{le="+Inf",type="a"} 3');
    expect(histogram.render()).toContain('d_seconds_sum{type="a"} 55.5');
    expect(histogram.render()).toContain('d_seconds_count{type="a"} 3');
    expect(histogram.counts()).toEqual([{ labels: { type: 'a' }, value: 3 }]);
  });

  it("counts a value on a bound in that bound's bucket and every wider one", () => {
    const histogram = createHistogram('d_seconds', 'Durations.', [10, 1, 5]);
    histogram.observe(1);
    histogram.observe(5);
    histogram.observe(5);
    expect(histogram.render().split('\n').slice(2)).toEqual([
      'd_seconds_bucket{le="1"} 1',
      'd_seconds_bucket{le="5"} 3',
      'd_seconds_bucket{le="10"} 3',
      'd_seconds_bucket{le="+Inf"} 3',
      'd_seconds_sum 11',
      'd_seconds_count 3',
    ]);
  });

  it('renders a gauge', () => {
    expect(renderGauge('g', 'A gauge.', 0.25)).toBe('# HELP g A gauge.\n# TYPE g gauge\ng 0.25');
  });
});
