check_PROGRAMS += tests/model/test_model
TESTS += tests/model/test_model
tests_model_test_model_SOURCES = %reldir%/test_model.c
tests_model_test_model_CFLAGS = $(LK_TESTFLAGS)
tests_model_test_model_LDADD = $(LK_TESTLIBS)
