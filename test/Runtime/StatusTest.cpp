//===- StatusTest.cpp - Tests of Status and StatusOr ----------------------===//
//
// Status and StatusOr carry the runtime's errors as values: success or a
// message, a value or a message. These tests pin down the small contract the
// rest of the runtime relies on (ok(), code(), message(), withContext(),
// moves), and the codes the runtime gives the failures callers decide on.
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runtime/Status.h"
#include "plaidml/Runtime/Device.h"
#include "plaidml/Runtime/Program.h"

#include <gtest/gtest.h>

#include <memory>

using namespace plaidml::rt;

TEST(Status, SuccessAndFailure) {
  EXPECT_TRUE(Status().ok());
  EXPECT_TRUE(Status::success().ok());
  Status failure = Status::failure("disk on fire");
  EXPECT_FALSE(failure.ok());
  EXPECT_EQ(failure.message(), "disk on fire");
  EXPECT_EQ(failure.withContext("saving 'x'").message(),
            "saving 'x': disk on fire");
  EXPECT_TRUE(Status::success().withContext("ignored").ok());
}

TEST(StatusOr, ValueAndError) {
  StatusOr<int> value = 42;
  ASSERT_TRUE(value.ok());
  EXPECT_EQ(*value, 42);
  EXPECT_TRUE(value.status().ok());

  StatusOr<int> error = Status::failure("no answer");
  EXPECT_FALSE(error.ok());
  EXPECT_EQ(error.message(), "no answer");
}

TEST(StatusOr, MoveOnlyValue) {
  StatusOr<std::unique_ptr<int>> value = std::make_unique<int>(7);
  ASSERT_TRUE(value.ok());
  std::unique_ptr<int> taken = std::move(value).value();
  EXPECT_EQ(*taken, 7);
}

TEST(Status, Codes) {
  EXPECT_EQ(Status().code(), StatusCode::OK);
  EXPECT_EQ(Status::failure("x").code(), StatusCode::Unknown);
  Status missing = Status::notFound("no such file 'a.so'");
  EXPECT_FALSE(missing.ok());
  EXPECT_EQ(missing.code(), StatusCode::NotFound);
  EXPECT_EQ(missing.toString(), "NOT_FOUND: no such file 'a.so'");
  // Context keeps the code.
  Status wrapped = missing.withContext("loading");
  EXPECT_EQ(wrapped.code(), StatusCode::NotFound);
  EXPECT_EQ(wrapped.message(), "loading: no such file 'a.so'");
  EXPECT_EQ(Status::unavailable("u").code(), StatusCode::Unavailable);
  EXPECT_EQ(Status::invalidArgument("i").code(), StatusCode::InvalidArgument);
  EXPECT_EQ(Status::resourceExhausted("r").code(),
            StatusCode::ResourceExhausted);
  EXPECT_EQ(Status::failedPrecondition("f").code(),
            StatusCode::FailedPrecondition);
  EXPECT_EQ(Status::internal("i").code(), StatusCode::Internal);
  EXPECT_STREQ(getStatusCodeName(StatusCode::ResourceExhausted),
               "RESOURCE_EXHAUSTED");
  EXPECT_EQ(Status::codeOfErrno(ENOENT), StatusCode::NotFound);
  EXPECT_EQ(Status::codeOfErrno(EACCES), StatusCode::PermissionDenied);
  EXPECT_EQ(Status::codeOfErrno(ENOMEM), StatusCode::ResourceExhausted);

  StatusOr<int> error = Status::outOfRange("too far");
  EXPECT_EQ(error.code(), StatusCode::OutOfRange);
  StatusOr<int> value = 1;
  EXPECT_EQ(value.code(), StatusCode::OK);
}

/// The runtime's failures carry the codes callers decide on.
TEST(Status, RuntimeFailuresHaveCodes) {
  EXPECT_EQ(parseDeviceName("tpu:0").code(), StatusCode::InvalidArgument);
  EXPECT_EQ(Program::load("/no/such/artifact.so").code(), StatusCode::NotFound);
  EXPECT_EQ(Program::load("/").code(), StatusCode::InvalidArgument);
}
