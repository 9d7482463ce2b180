// The API's and the database's names are snake_case; the code's are camelCase.

/**
 * The snake_case form of a camelCase name: a request field as the API names it, a row key as its column.
 *
 * @example
 * ```ts
 * snakeCase('requireIdentification'); // 'require_identification'
 * snakeCase('demoId'); // 'demo_id'
 * ```
 */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
