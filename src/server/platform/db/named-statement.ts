/**
 * A raw statement whose text names its parameters (`:totalCents`) instead of numbering them
 * (`$5`): the names are turned into PostgreSQL's numbers once, here, in the order `names` lists
 * them, and `bind` puts each value in its place. A name the text uses and the list does not, or
 * one listed and never used, fails at load: the two cannot drift apart. `::type` casts are left
 * as they are.
 */
export function namedStatement<Name extends string>(name: string, names: readonly Name[], text: string) {
  const used = new Set<string>();
  const numbered = text.replace(/(?<![:\w]):([A-Za-z]\w*)/g, (_, parameter: string) => {
    const index = names.indexOf(parameter as Name);
    if (index < 0) throw new Error(`${name}: the text names :${parameter}, which is not among its parameters`);
    used.add(parameter);
    return `$${index + 1}`;
  });
  const unused = names.filter((parameter) => !used.has(parameter));
  if (unused.length > 0) throw new Error(`${name}: parameters never used in the text: ${unused.join(", ")}`);
  return {
    name,
    text: numbered,
    /** The statement with its values, in the driver's form (`pool.query(statement.bind(values))`). */
    bind: (values: Record<Name, unknown>) => ({
      name,
      text: numbered,
      values: names.map((parameter) => values[parameter]),
    }),
  };
}
