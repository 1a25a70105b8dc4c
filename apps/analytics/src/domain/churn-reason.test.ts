import { describe, expect, it } from 'vitest';
import { shownChurnReason } from './churn-reason.js';

describe('shownChurnReason', () => {
  it("is the reason's name, else the custom reason, else ''", () => {
    expect(shownChurnReason('Too expensive', 'Moved away')).toBe('Too expensive');
    expect(shownChurnReason(null, 'Moved away')).toBe('Moved away');
    expect(shownChurnReason('', 'Moved away')).toBe('Moved away');
    expect(shownChurnReason(null, '')).toBe('');
    expect(shownChurnReason(null, null)).toBe('');
  });
});
