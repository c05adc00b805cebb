// Original file: google/type/expr.proto


export interface Expr {
  'expression'?: (string);
  'title'?: (string);
  'description'?: (string);
  'location'?: (string);
}

export interface Expr__Output {
  'expression'?: (string);
  'title'?: (string);
  'description'?: (string);
  'location'?: (string);
}
