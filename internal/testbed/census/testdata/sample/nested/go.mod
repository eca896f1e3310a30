module example.com/sample/nested

go 1.26
