/** One secret found in a text: the span to replace and the placeholder's kind. */
export interface Finding {
  start: number;
  end: number;
  kind: string;
  /** Where the rule comes from: a secretlint rule id, `gitleaks:<rule id>`, or `engine:<name>`. */
  rule: string;
}
