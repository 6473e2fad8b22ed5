"""Reading a problem package in the Kattis problem package format, one module per aspect (as
problemtools' checks): ``metadata`` (problem.yaml), ``testdata`` (test groups and grading),
``statements`` (statements in each language, as HTML). ``judge.packages.load_package`` puts them
together."""
