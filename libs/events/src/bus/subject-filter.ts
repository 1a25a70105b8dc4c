/** NATS subject matching: `*` matches one token, a final `>` matches one or more. */
export function subjectMatches(filter: string, subject: string): boolean {
  const filterTokens = filter.split('.');
  const subjectTokens = subject.split('.');
  for (let i = 0; i < filterTokens.length; i++) {
    const token = filterTokens[i];
    if (token === '>') return i === filterTokens.length - 1 && subjectTokens.length > i;
    if (i >= subjectTokens.length) return false;
    if (token !== '*' && token !== subjectTokens[i]) return false;
  }
  return filterTokens.length === subjectTokens.length;
}
