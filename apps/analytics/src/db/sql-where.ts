/** A WHERE clause built from optional conditions, with its `?` bindings in order. */
export class SqlWhere {
  private readonly conditions: string[] = [];
  readonly params: unknown[] = [];

  /** Adds `condition` (with `?` for each of `params`). */
  add(condition: string, ...params: unknown[]): this {
    this.conditions.push(condition);
    this.params.push(...params);
    return this;
  }

  /** Adds the condition only when `value` is given (not undefined). */
  when<T>(value: T | undefined, condition: string, bind: (value: T) => unknown[] = (v) => [v]): this {
    if (value !== undefined) this.add(condition, ...bind(value));
    return this;
  }

  /** `column in (?, ?, …)` when the list is not empty. */
  whenAny(values: readonly unknown[], column: string): this {
    if (values.length > 0) this.add(`${column} in (${values.map(() => '?').join(', ')})`, ...values);
    return this;
  }

  get sql(): string {
    return this.conditions.length > 0 ? `where ${this.conditions.join(' and ')}` : '';
  }
}
