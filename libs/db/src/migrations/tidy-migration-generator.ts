import { TSMigrationGenerator } from '@mikro-orm/migrations';

const LINE_WIDTH = 120;

/**
 * MikroORM's TypeScript migration template, laid out the way the repository's formatter (biome)
 * wants it, so a freshly generated migration passes `npm run lint` untouched.
 */
export class TidyMigrationGenerator extends TSMigrationGenerator {
  override generateMigrationFile(className: string, diff: { up: string[]; down: string[] }): string {
    const lines = [
      "import { Migration } from '@mikro-orm/migrations';",
      '',
      `export class ${className} extends Migration {`,
      `  override name = '${className}';`,
      '',
      '  override up(): void {',
      ...this.statements(diff.up),
      '  }',
    ];
    if (diff.down.length > 0) {
      lines.push('', '  override down(): void {', ...this.statements(diff.down), '  }');
    }
    lines.push('}', '');
    return lines.join('\n');
  }

  /** One addSql per statement; an empty entry in the diff marks a group break, kept as one blank line. */
  private statements(sql: string[]): string[] {
    const out: string[] = [];
    for (const statement of sql) {
      if (statement) out.push(...this.addSqlCall(statement));
      else if (out.length > 0 && out.at(-1) !== '') out.push('');
    }
    while (out.at(-1) === '') out.pop();
    return out;
  }

  /** `this.addSql(...)` on one line when it fits the formatter's width, else wrapped as biome wraps it. */
  private addSqlCall(statement: string): string[] {
    const literal = `\`${statement.replace(/[`$\\]/g, '\\$&')}\``;
    const oneLine = `    this.addSql(${literal});`;
    if (oneLine.length <= LINE_WIDTH) return [oneLine];
    return ['    this.addSql(', `      ${literal},`, '    );'];
  }
}
