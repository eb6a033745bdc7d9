"""Reading a command line the way bash does, running nothing: the lexer, the syntax tree, the
expansion of words into arguments, escapes, and the time budget every loop looks at."""
