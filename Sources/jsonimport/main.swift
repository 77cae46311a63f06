import JSONImport
print("jsonimport")
